import { billingEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import { type Auth, assertPermission, refuseRestrictedChanges, requireViewer } from "../accounts/index.ts";
import { type PlanCatalog, toPlanList } from "./plans.ts";
import { viaProvider } from "./provider-errors.ts";
import type { BillingService } from "./service.ts";

export interface BillingRouteDeps {
  auth: Auth;
  plans: PlanCatalog;
  billing: BillingService;
}

export async function billingRoutes(app: FastifyInstance, { auth, plans, billing }: BillingRouteDeps) {
  const list = toPlanList(plans);
  route(app, billingEndpoints.plans, async () => list);

  await app.register(async (member) => {
    refuseRestrictedChanges(member, auth);
    route(member, billingEndpoints.sticky, async ({ req }) =>
      viaProvider(async () => billing.sticky(await requireViewer(auth, req))),
    );
    route(member, billingEndpoints.act, async ({ req, body }) =>
      viaProvider(async () => billing.act(await requireViewer(auth, req), body)),
    );
  });

  // Administrators only, checked before the body is read.
  await app.register(async (admin) => {
    admin.addHook("preHandler", async (req) => {
      assertPermission(await requireViewer(auth, req), "admin");
    });
    route(admin, billingEndpoints.grant, async ({ req, body, reply }) => {
      const granted = await billing.grant(await requireViewer(auth, req), body);
      reply.status(201);
      return granted;
    });
  });
}

import { checkoutEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { ownOrigin } from "../../http/origin-check.ts";
import { route } from "../../http/route.ts";
import { type Auth, assertPermission, refuseRestrictedChanges, requireViewer } from "../accounts/index.ts";
import type { CheckoutService } from "./checkout-service.ts";
import { allCountries, statesOf } from "./countries.ts";
import { createCoupon, deleteCoupon, listCoupons } from "./coupons.ts";
import { pendingManualOrders } from "./order-queries.ts";
import { viaProvider } from "./provider-errors.ts";

export interface CheckoutRouteDeps {
  auth: Auth;
  db: Db;
  checkout: CheckoutService;
  config: Pick<Config, "publicUrl">;
}

export async function checkoutRoutes(
  app: FastifyInstance,
  { auth, db, checkout, config }: CheckoutRouteDeps,
) {
  const e = checkoutEndpoints;
  route(app, e.options, async () => checkout.options());
  route(app, e.countries, async () => allCountries());
  route(app, e.states, async ({ params }) => statesOf(params.country));

  await app.register(async (member) => {
    refuseRestrictedChanges(member, auth);
    const viewer = (req: Parameters<typeof requireViewer>[1]) => requireViewer(auth, req);
    route(member, e.onFile, async ({ req }) => ({ on_file: await checkout.onFile(await viewer(req)) }));
    route(member, e.calculate, async ({ req, body }) =>
      viaProvider(async () => checkout.calculate(await viewer(req), body)),
    );
    route(member, e.newOrder, async ({ req, body }) => {
      const origin = ownOrigin(config, req);
      if (!origin) throw new HttpError(400, "invalidRequest", "The request names no host to return to.");
      const who = await viewer(req);
      return viaProvider(() => checkout.newOrder(who, body, origin));
    });
    route(member, e.confirm, async ({ req, params }) =>
      viaProvider(async () => checkout.confirm(await viewer(req), params.orderId)),
    );
    route(member, e.manualPayment, async ({ req, body }) => checkout.manualPayment(await viewer(req), body));
    route(member, e.order, async ({ req, params }) => checkout.order(await viewer(req), params.orderId));
    route(member, e.exit, async ({ req, body }) => {
      const who = await viewer(req);
      // The abandonment is worth a log line for the operator's funnel, nothing more.
      req.log.info(
        { event: "checkout.exit", userId: who.id, planId: body.plan_id, stage: body.stage },
        "checkout left",
      );
    });
  });

  // Stripe signs the exact bytes it sent: this route reads its body raw (its own plugin scope).
  await app.register(async (hooks) => {
    hooks.addContentTypeParser(
      "application/json",
      { parseAs: "buffer", bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, body),
    );
    route(hooks, e.stripeWebhook, async ({ req }) => {
      const signature = req.headers["stripe-signature"];
      await checkout.webhook(
        Buffer.isBuffer(req.body) ? req.body : Buffer.from(""),
        typeof signature === "string" ? signature : undefined,
      );
      return { received: true };
    });
  });

  // Administrators only, checked before the body is read.
  await app.register(async (admin) => {
    admin.addHook("preHandler", async (req) => {
      assertPermission(await requireViewer(auth, req), "admin");
    });
    route(admin, e.coupons, async () => listCoupons(db));
    route(admin, e.createCoupon, async ({ req, body, reply }) => {
      reply.status(201);
      return createCoupon(db, body, (await requireViewer(auth, req)).id);
    });
    route(admin, e.deleteCoupon, async ({ params }) => deleteCoupon(db, params.code));
    route(admin, e.pendingOrders, async () =>
      (await pendingManualOrders(db)).map((order) => pendingOrderOf(checkout, order)),
    );
    route(admin, e.markReceived, async ({ req, params }) =>
      pendingOrderOf(checkout, await checkout.markReceived(await requireViewer(auth, req), params.orderId)),
    );
  });
}

function pendingOrderOf(checkout: CheckoutService, order: Parameters<CheckoutService["toCheckoutOrder"]>[0]) {
  const details = order.billingDetails as Record<string, string | undefined>;
  return {
    ...checkout.toCheckoutOrder(order),
    user_id: order.userId,
    email: details.email ?? "",
    name: `${details.first_name ?? ""} ${details.last_name ?? ""}`.trim(),
  };
}

import { pledgeEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import { HttpError } from "../../http/errors.ts";
import { ownOrigin } from "../../http/origin-check.ts";
import { route } from "../../http/route.ts";
import { type Auth, requireViewer } from "../accounts/index.ts";
import { assertCanLinkPledge } from "./policy.ts";
import type { PledgeService } from "./service.ts";

export interface PledgeRouteDeps {
  config: Pick<Config, "publicUrl">;
  auth: Auth;
  pledges: PledgeService;
}

/** GET /api/link/…: every route needs a member who may link, checked before any input is read. */
export async function pledgeRoutes(app: FastifyInstance, { config, auth, pledges }: PledgeRouteDeps) {
  app.addHook("preHandler", async (req) => {
    assertCanLinkPledge(await requireViewer(auth, req));
  });

  route(app, pledgeEndpoints.authorize, async ({ req, params }) => {
    // The platform sends the browser back to Hearth's own page, at the address it was reached by.
    const origin = ownOrigin(config, req);
    if (!origin) throw new HttpError(400, "invalidRequest", "The request did not say which site it was for.");
    return pledges.authorize(await requireViewer(auth, req), params.pledge_service, origin);
  });
  route(app, pledgeEndpoints.oauth, async ({ req, params, query }) =>
    pledges.complete(await requireViewer(auth, req), params.pledge_service, query),
  );
  route(app, pledgeEndpoints.result, async ({ req, params }) =>
    pledges.result(await requireViewer(auth, req), params.pledge_service, params.transientId),
  );
}

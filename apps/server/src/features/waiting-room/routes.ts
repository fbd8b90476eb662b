import { queueEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import { type Auth, getViewer } from "../accounts/index.ts";
import { assertMayAsk } from "./policy.ts";
import type { WaitingRoom } from "./service.ts";

/**
 * GET /api/queue reads the viewer's state; POST /api/queue joins the line. Members and guests
 * (401 signed out, 403 restricted), checked before the query or body is read.
 */
export async function waitingRoomRoutes(app: FastifyInstance, deps: { auth: Auth; room: WaitingRoom }) {
  app.addHook("preHandler", async (req) => {
    assertMayAsk(await getViewer(deps.auth, req));
  });

  route(app, queueEndpoints.state, async ({ req, query }) => {
    const viewer = assertMayAsk(await getViewer(deps.auth, req));
    return deps.room.state(viewer, query, req.log);
  });

  route(app, queueEndpoints.join, async ({ req, body }) => {
    const viewer = assertMayAsk(await getViewer(deps.auth, req));
    return deps.room.join(viewer, body, req.log);
  });
}

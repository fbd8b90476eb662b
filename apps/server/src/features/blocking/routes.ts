import { blockingEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type Auth, findViewer, getViewer, type Viewer } from "../accounts/index.ts";
import { assertCanBlock, assertNotSelf } from "./policy.ts";
import { deleteBlock, insertBlock, listBlockedCreators } from "./queries.ts";

/**
 * Blocked creators (accounts-billing-admin §2.2, §7): list, block by the creator's user id,
 * unblock. Members only, checked before any input is read.
 */
export async function blockingRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth }) {
  const { db } = deps;
  const viewerOf = async (req: FastifyRequest): Promise<Viewer> =>
    assertCanBlock(await getViewer(deps.auth, req));
  app.addHook("preHandler", async (req) => {
    await viewerOf(req);
  });

  route(app, blockingEndpoints.list, async ({ req }) => {
    const viewer = await viewerOf(req);
    const rows = await listBlockedCreators(db, viewer.id);
    return {
      creators: rows.map((r) => ({
        id: r.id,
        username: r.username,
        name: r.name,
        avatar_url: r.image,
        blocked_at: r.blockedAt.toISOString(),
      })),
    };
  });

  route(app, blockingEndpoints.block, async ({ req, body }) => {
    const viewer = await viewerOf(req);
    assertNotSelf(viewer, body.creator);
    const creator = await findViewer(db, body.creator);
    // Guests have no page and no public bots to hide: they are not creators one can block.
    if (!creator || creator.isGuest) throw notFound("There is no creator with this id.");
    await insertBlock(db, viewer.id, creator.id);
    return {
      creator: { id: creator.id, username: creator.username, name: creator.name, avatar_url: creator.image },
      blocked: true,
    };
  });

  route(app, blockingEndpoints.unblock, async ({ req, params }) => {
    const viewer = await viewerOf(req);
    await deleteBlock(db, viewer.id, params.id);
  });
}

// What the blocking feature offers the rest of the server (issue 11): its routes, and the one
// check every chat path makes before a member talks to a bot (chats/policy.ts calls it).
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import type { Db } from "../../db/client.ts";
import type { Viewer } from "../accounts/index.ts";
import { blockedBotCreator } from "./policy.ts";
import { isBlocked } from "./queries.ts";
import { blockingRoutes } from "./routes.ts";

export { blockedBotCreator } from "./policy.ts";

/** Registers the feature's routes (and any background work; answers a function that stops it). */
export async function installBlocking(app: FastifyInstance, deps: CommunityDeps): Promise<() => void> {
  await app.register(blockingRoutes, { db: deps.db, auth: deps.auth });
  return () => {};
}

/**
 * Refuses (403 `blockedBotCreator`) when the viewer blocked this bot's creator. Guests and
 * signed-out visitors keep no blocks, so they cost no query.
 */
export async function assertCreatorNotBlocked(
  db: Db,
  viewer: Pick<Viewer, "id" | "isGuest"> | null,
  creatorUserId: string,
): Promise<void> {
  if (!viewer || viewer.isGuest || viewer.id === creatorUserId) return;
  if (await isBlocked(db, viewer.id, creatorUserId)) throw blockedBotCreator();
}

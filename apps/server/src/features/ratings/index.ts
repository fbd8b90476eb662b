// What the ratings feature offers the rest of the server (issue 11): chatbot ratings, tag
// suggestions and the `POST /api/event` dispatch. Its routes install from app.ts.
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import type { Db } from "../../db/client.ts";
import { ratedCharacterIds, refreshRatingScores } from "./queries.ts";
import { type OtherEvents, ratingRoutes } from "./routes.ts";

export { INTERACTION_SCORE } from "./queries.ts";

/**
 * An account deletion hook (accounts' AccountDeletionHook): the bots the account rated get their
 * rating_score recomputed once its ratings are gone, in the deletion's transaction.
 */
export async function ratingsOnAccountDeletion(tx: Db, userId: string) {
  const rated = await ratedCharacterIds(tx, userId);
  return rated.length === 0 ? null : (after: Db) => refreshRatingScores(after, rated);
}

/** Registers the feature's routes (and any background work; answers a function that stops it). */
export async function installRatings(
  app: FastifyInstance,
  deps: CommunityDeps,
  /** The event kinds other features handle (the ads feature's), passed in by app.ts. */
  otherEvents: OtherEvents,
): Promise<() => void> {
  await app.register(ratingRoutes, { ...deps, otherEvents });
  return () => {};
}

// What the ratings feature offers the rest of the server (issue 11): chatbot ratings, tag
// suggestions and the `POST /api/event` dispatch. Its routes install from app.ts.
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import { ratingRoutes } from "./routes.ts";

export { INTERACTION_SCORE } from "./queries.ts";

/** Registers the feature's routes (and any background work; answers a function that stops it). */
export async function installRatings(app: FastifyInstance, deps: CommunityDeps): Promise<() => void> {
  await app.register(ratingRoutes, deps);
  return () => {};
}

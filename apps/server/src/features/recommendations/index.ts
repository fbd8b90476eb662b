// What the recommendations feature offers the rest of the server (issue 11). Its routes install from app.ts.
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import { recommendationRoutes } from "./routes.ts";

export { HEAVY_CHAT_MESSAGES, type RecommendOptions, recommend } from "./queries.ts";

/** Registers the feature's routes (and any background work; answers a function that stops it). */
export async function installRecommendations(app: FastifyInstance, deps: CommunityDeps): Promise<() => void> {
  await app.register(recommendationRoutes, {
    db: deps.db,
    auth: deps.auth,
    storage: deps.storage,
    config: deps.config,
  });
  return () => {};
}

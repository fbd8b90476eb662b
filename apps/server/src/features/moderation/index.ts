// What the moderation feature offers the rest of the server (issue 11): its routes, and the hooks
// app.ts hands to CharacterService (a bot waiting for review opens one; admin edits are audited).
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import { moderationRoutes } from "./routes.ts";
import { ModerationService } from "./service.ts";

export { insertAudit } from "./queries.ts";
export { moderationHooks } from "./service.ts";

/** Registers the feature's routes (and any background work; answers a function that stops it). */
export async function installModeration(app: FastifyInstance, deps: CommunityDeps): Promise<() => void> {
  const service = new ModerationService({ db: deps.db, storage: deps.storage, characters: deps.characters });
  await app.register(moderationRoutes, { auth: deps.auth, storage: deps.storage, service });
  return () => {};
}

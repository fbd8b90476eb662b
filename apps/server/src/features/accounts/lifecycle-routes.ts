import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "./auth.ts";
import { profileAvatarRoutes } from "./avatar-routes.ts";
import type { AccountDeletionHook } from "./deletion.ts";
import { deletionRoutes } from "./deletion-routes.ts";
import { emailRoutes } from "./email-routes.ts";
import { onboardingRoutes } from "./onboarding-routes.ts";
import { refuseRestrictedChanges } from "./policy.ts";
import { unlockRoutes } from "./unlock-routes.ts";

/** An account's life beside its profile: onboarding, the update-email page, reset and unlock links, deletion, the avatar (it needs storage). */
export async function accountLifecycleRoutes(
  app: FastifyInstance,
  deps: { config: Config; db: Db; auth: Auth; storage: FileStorage; deletionHooks: AccountDeletionHook[] },
) {
  refuseRestrictedChanges(app, deps.auth);
  await app.register(onboardingRoutes, deps);
  await app.register(emailRoutes, deps);
  await app.register(unlockRoutes, deps);
  await app.register(deletionRoutes, deps);
  await app.register(profileAvatarRoutes, deps);
}

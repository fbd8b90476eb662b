import { type AppConfig, accountEndpoints, type Me } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { type Config, memoriesOffered } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "./auth.ts";
import type { ModelChoices } from "./default-model-routes.ts";
import { firstAdminState, requesterOf } from "./first-admin.ts";
import { guestResumeRoutes } from "./guest-resume.ts";
import { canChangeUser, canManageUsers } from "./policy.ts";
import { profileRoutes } from "./profile-routes.ts";
import { listUsers, toAdminUser, updateUser } from "./queries.ts";
import { requireViewer, toMe } from "./viewer.ts";

export interface AccountsDeps {
  config: Config;
  db: Db;
  auth: Auth;
  /** Which models a member may choose as their default (the inference registry, from app.ts). */
  models: ModelChoices;
  /** Where uploaded avatars live: an avatar address set by PATCH replaces the uploaded file. */
  storage: FileStorage;
}

export async function accountRoutes(
  app: FastifyInstance,
  { config, db, auth, models, storage }: AccountsDeps,
) {
  const firstUserAdmin = firstAdminState(db, config.firstUserAdmin, config.publicUrl);
  route(
    app,
    accountEndpoints.config,
    async ({ req }): Promise<AppConfig> => ({
      brand: config.brand,
      edition: config.edition,
      memory_manager: memoriesOffered(config),
      auth: {
        email_password: true,
        guests: config.guests,
        oidc: config.oidc ? { provider_id: config.oidc.providerId, label: config.oidc.label } : null,
        first_user_admin: await firstUserAdmin(requesterOf(req)),
        password_reset: config.mail !== null,
      },
      version: config.version,
    }),
  );

  route(app, accountEndpoints.me, async ({ req }): Promise<Me> => toMe(await requireViewer(auth, req)));

  await app.register(profileRoutes, { config, db, auth, models, storage });
  await app.register(adminUserRoutes, { db, auth });
  await app.register(guestResumeRoutes, { db, auth, secret: config.secret });
}

/** User management: administrators only, checked before any input is read. */
async function adminUserRoutes(app: FastifyInstance, { db, auth }: Pick<AccountsDeps, "db" | "auth">) {
  app.addHook("preHandler", async (req) => {
    canManageUsers(await requireViewer(auth, req));
  });

  route(app, accountEndpoints.listUsers, async ({ query }) => listUsers(db, query));

  route(app, accountEndpoints.updateUser, async ({ req, params: { id }, body: change }) => {
    const viewer = await requireViewer(auth, req);
    canChangeUser(viewer, id, change);
    const row = await updateUser(db, id, change);
    if (!row) throw notFound("No such user.");
    return toAdminUser(row);
  });
}

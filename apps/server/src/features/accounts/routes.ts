import { type AppConfig, adminUserListQuery, adminUserUpdate, type Me } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import type { Auth } from "./auth.ts";
import { firstAdminState } from "./first-admin.ts";
import { canChangeUser, canManageUsers } from "./policy.ts";
import { listUsers, toAdminUser, updateUser } from "./queries.ts";
import { requireViewer, toMe } from "./viewer.ts";

export interface AccountsDeps {
  config: Config;
  db: Db;
  auth: Auth;
}

const userIdParams = z.object({ id: z.uuid() });

export async function accountRoutes(app: FastifyInstance, { config, db, auth }: AccountsDeps) {
  const firstUserAdmin = firstAdminState(db, config.firstUserAdmin);
  app.get(
    "/api/config",
    async (): Promise<AppConfig> => ({
      brand: config.brand,
      edition: config.edition,
      auth: {
        email_password: true,
        guests: config.guests,
        oidc: config.oidc ? { provider_id: config.oidc.providerId, label: config.oidc.label } : null,
        first_user_admin: await firstUserAdmin(),
      },
      version: config.version,
    }),
  );

  app.get("/api/me", async (req): Promise<Me> => toMe(await requireViewer(auth, req)));

  app.get("/api/admin/users", async (req) => {
    canManageUsers(await requireViewer(auth, req));
    return listUsers(db, parse(adminUserListQuery, req.query));
  });

  app.patch("/api/admin/users/:id", async (req) => {
    const viewer = await requireViewer(auth, req);
    canManageUsers(viewer);
    const { id } = parse(userIdParams, req.params);
    const change = parse(adminUserUpdate, req.body);
    canChangeUser(viewer, id, change);
    const row = await updateUser(db, id, change);
    if (!row) throw notFound("No such user.");
    return toAdminUser(row);
  });
}

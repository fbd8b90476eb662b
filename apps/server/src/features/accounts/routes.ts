import { type AppConfig, adminUserListQuery, adminUserUpdate, type Me } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import type { Auth } from "./auth.ts";
import { canManageUsers } from "./policy.ts";
import { listUsers, toAdminUser, updateUser } from "./queries.ts";
import { requireViewer, toMe } from "./viewer.ts";

export interface AccountsDeps {
  config: Config;
  db: Db;
  auth: Auth;
}

const userIdParams = z.object({ id: z.uuid() });

export async function accountRoutes(app: FastifyInstance, { config, db, auth }: AccountsDeps) {
  app.get(
    "/api/config",
    async (): Promise<AppConfig> => ({
      brand: config.brand,
      edition: config.edition,
      auth: {
        email_password: true,
        guests: config.guests,
        oidc: config.oidc ? { provider_id: config.oidc.providerId, label: config.oidc.label } : null,
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
    canManageUsers(await requireViewer(auth, req));
    const { id } = parse(userIdParams, req.params);
    const row = await updateUser(db, id, parse(adminUserUpdate, req.body));
    if (!row) throw notFound("No such user.");
    return toAdminUser(row);
  });
}

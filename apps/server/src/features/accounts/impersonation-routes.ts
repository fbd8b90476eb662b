import { impersonationEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { notFound, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { type AuditWriter, startImpersonation, stopImpersonation } from "./impersonation.ts";
import { findViewer } from "./lookups.ts";
import { canImpersonate, canManageUsers } from "./policy.ts";
import { requireViewer, toMe } from "./viewer.ts";

export interface ImpersonationDeps {
  db: Db;
  auth: Auth;
  /** Writes the audit log (the moderation feature's, handed in by app.ts). */
  audit: AuditWriter;
}

/** POST /api/admin/users/{id}/impersonate and POST /api/admin/impersonation/stop (impersonation.ts). */
export async function impersonationRoutes(app: FastifyInstance, deps: ImpersonationDeps) {
  await app.register(startRoute, deps);

  // Called from the viewing session (the user's, not an administrator's): the kept cookie decides.
  route(app, impersonationEndpoints.stop, async ({ req, reply }) => {
    const adminId = await stopImpersonation(deps.auth, deps.audit, req, reply);
    const admin = await findViewer(deps.db, adminId);
    if (!admin) throw unauthorized();
    return toMe(admin);
  });
}

/** Administrators only, checked before the id is read. */
async function startRoute(app: FastifyInstance, { db, auth, audit }: ImpersonationDeps) {
  app.addHook("preHandler", async (req) => {
    canManageUsers(await requireViewer(auth, req));
  });

  route(app, impersonationEndpoints.start, async ({ req, reply, params: { id } }) => {
    const admin = await requireViewer(auth, req);
    const target = await findViewer(db, id);
    if (!target) throw notFound("No such user.");
    canImpersonate(admin, target);
    await startImpersonation(auth, audit, req, reply, admin, target);
    return toMe({ ...target, impersonatedBy: { id: admin.id, name: admin.name } });
  });
}

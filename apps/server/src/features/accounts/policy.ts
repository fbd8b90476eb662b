import {
  type AdminUserUpdate,
  accountEndpoints,
  accountLifecycleEndpoints,
  accountTransferEndpoints,
  adEndpoints,
  characterEndpoints,
  impersonationEndpoints,
  operationsEndpoints,
  type Permission,
  siteEndpoints,
} from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { forbidden, HttpError } from "../../http/errors.ts";
import { fastifyPath } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { getViewer, type Viewer } from "./viewer.ts";

/**
 * The server's one permission check. A restricted account is refused everything with the
 * `restricted` code, so the client can show its single restriction page.
 */
export function assertPermission(viewer: Viewer, permission: Permission): void {
  assertNotRestricted(viewer);
  if (!viewer.permissions.includes(permission)) {
    throw forbidden(
      viewer.permissions.includes("limited_access")
        ? "Your account has limited access and cannot do this."
        : "You are not allowed to do this.",
    );
  }
}

/** Restricted accounts are refused everything, so the client shows its single restriction page. */
export function assertNotRestricted(viewer: Viewer | null): void {
  if (viewer && isRestricted(viewer)) {
    throw new HttpError(403, "restricted", "Your account is restricted. Please contact the moderators.");
  }
}

export function isRestricted(viewer: Viewer): boolean {
  return (
    viewer.permissions.includes("restriction_complete") ||
    viewer.permissions.includes("restriction_temporary")
  );
}

/**
 * Administrator rights, as the derived permissions grant them: an account with the stored
 * administrator flag but any restriction has none. Every access check asks this, never the flag.
 */
export const isAdministrator = (viewer: Viewer | null | undefined): boolean =>
  Boolean(viewer?.permissions.includes("admin"));

/**
 * All a restricted account may still reach (as `METHOD /fastify/pattern`): what its one
 * restriction page reads (the account itself, the site's brand, settings and pages), a way out
 * of an administrator's view, and the rights every account keeps over its own data: downloading
 * it and deleting the account; and stored files (avatars), public to anyone by their key, so no
 * picture costs a session lookup. Anything else answers 403 `restricted`.
 */
const RESTRICTED_MAY_REACH = new Set(
  [
    accountEndpoints.me,
    accountEndpoints.config,
    adEndpoints.appSettings,
    siteEndpoints.config,
    siteEndpoints.page,
    operationsEndpoints.health,
    accountTransferEndpoints.export,
    accountLifecycleEndpoints.deleteAccount,
    impersonationEndpoints.stop,
    characterEndpoints.file,
  ].map((e) => `${e.method} ${fastifyPath(e.path)}`),
);

/** better-auth paths a restricted account keeps: signing in (as someone else too) and out. */
const RESTRICTED_AUTH_PATHS = /^\/api\/auth\/(sign-in|sign-up|sign-out|get-session|callback|error|ok)(\/|$)/;

/** Whether a restricted account may make this request (`path`: the route's pattern, or better-auth's path). */
export function restrictedMayReach(method: string, path: string): boolean {
  if (path.startsWith("/api/auth/")) return RESTRICTED_AUTH_PATHS.test(path);
  return RESTRICTED_MAY_REACH.has(`${method === "HEAD" ? "GET" : method} ${path}`);
}

/** Operators manage users. */
export const canManageUsers = (viewer: Viewer) => assertPermission(viewer, "admin");

/** An admin may change anyone, except take away their own admin rights or restrict themselves. */
export function canChangeUser(viewer: Viewer, targetId: string, change: AdminUserUpdate): void {
  canManageUsers(viewer);
  const selfLockout =
    change.is_admin === false || (change.restriction !== undefined && change.restriction !== "none");
  if (targetId === viewer.id && selfLockout) {
    throw forbidden(
      "You cannot remove your own administrator rights or restrict yourself. Ask another administrator.",
    );
  }
}

/** An administrator may view the site as a member (read-only): not as themselves, another administrator or a guest. */
export function canImpersonate(viewer: Viewer, target: Viewer): void {
  canManageUsers(viewer);
  if (target.id === viewer.id) throw forbidden("You can't view the site as yourself: you already are.");
  if (target.isAdmin) throw forbidden("You can't view the site as another administrator.");
  if (target.isGuest) {
    throw forbidden("You can't view the site as a guest: guest sessions are temporary. Choose a member.");
  }
}

/**
 * A plugin-level preHandler for routes that change something: a restricted account is refused
 * with 403 `restricted` before the body is read, so a malformed body cannot answer 400 first.
 */
export function refuseRestrictedChanges(app: FastifyInstance, auth: Auth): void {
  app.addHook("preHandler", async (req) => {
    if (req.method === "GET" || req.method === "HEAD") return;
    if (restrictedMayReach(req.method, req.routeOptions.url ?? "")) return;
    assertNotRestricted(await getViewer(auth, req));
  });
}

/** Guests have no profile to change (their avatar, name and the like come with signing up). */
export function assertCanChangeOwnProfile(viewer: Viewer): void {
  assertNotRestricted(viewer);
  if (viewer.isGuest) {
    throw forbidden("Guests can't change a profile. Sign up for a free account to choose your avatar.");
  }
}

import { impersonationEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../../http/errors.ts";
import type { Auth } from "./auth.ts";
import { assertNotRestricted } from "./policy.ts";
import {
  clearCookie,
  readSignedCookie,
  type SessionOptions,
  setSessionCookie,
  setSignedCookie,
  startSession,
} from "./session-cookie.ts";
import { getViewer, IMPERSONATION_SECONDS, sessionReadByRoute, toHeaders, type Viewer } from "./viewer.ts";

/**
 * An administrator viewing the site as a user (accounts-billing-admin §2.2, the impersonation
 * banner). The view is a better-auth session of the user marked `impersonated_by`, living an
 * hour; the administrator's own session token waits in a separate signed httpOnly cookie and
 * comes back on stop. Nothing may change while viewing: one hook refuses every write.
 */

/** One audit log row (the moderation feature's writer, handed in by app.ts). */
export interface AuditEntryInput {
  actorUserId: string;
  action: string;
  targetType: string;
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}
export type AuditWriter = (entry: AuditEntryInput) => Promise<void>;

export const IMPERSONATING_MESSAGE =
  "You are viewing the site as this user, read-only: nothing can be changed. Stop viewing to act as yourself.";

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Writes still allowed while viewing: ending the view, and signing out. */
const WAYS_OUT = new Set([impersonationEndpoints.stop.path, "/api/auth/sign-out"]);

/**
 * Registered once on the root, before any route: a state-changing request made with a viewing
 * session answers 403 `impersonating` before any handler runs, and so before a route's own
 * checks of its input. Generation, uploads and better-auth's own writes included.
 *
 * The session is looked up as the request arrives and awaited only before the handlers (the
 * root's preHandler runs before every route's), so the lookup overlaps the body's arrival and a
 * route's reads begun ahead of its checks; a route that reads the session in its own statement
 * (generation's accept, `readsOwnSession`; issue 15 item 4) is left to do so. Only a body
 * that is not JSON at all is answered first (400): it reaches no handler either.
 */
export function refuseWritesWhileImpersonating(app: FastifyInstance, auth: Auth): void {
  const mayWrite = (req: FastifyRequest) => {
    if (READ_ONLY_METHODS.has(req.method)) return false;
    // The matched route, so no spelling of a path slips by; /v1 opens by bearer key, not cookie.
    const pattern = req.routeOptions.url;
    if (!pattern?.startsWith("/api/")) return false;
    const path = pattern === "/api/auth/*" ? req.url.split("?")[0] : pattern;
    return !(path && WAYS_OUT.has(path));
  };
  app.addHook("onRequest", async (req) => {
    // Its failure is answered by the preHandler's await (and by any route that needs the viewer).
    if (mayWrite(req) && !sessionReadByRoute(auth, req)) getViewer(auth, req).catch(() => {});
  });
  app.addHook("preHandler", async (req) => {
    if (mayWrite(req) && (await getViewer(auth, req))?.impersonatedBy) {
      throw new HttpError(403, "impersonating", IMPERSONATING_MESSAGE);
    }
  });
}

/** The administrator's cookie: `<their session token>:<1 if their session was "don't remember me">`. */
const ADMIN_COOKIE = "admin_session";

/** Opens the view of `target` for the administrator behind `req`; audited before the cookie is set. */
export async function startImpersonation(
  auth: Auth,
  audit: AuditWriter,
  req: FastifyRequest,
  reply: FastifyReply,
  admin: Viewer,
  target: Viewer,
): Promise<void> {
  const ctx = await auth.$context;
  const own = await auth.api.getSession({ headers: toHeaders(req.headers) });
  if (!own) throw new HttpError(401, "unauthorized", "Please sign in.");
  const dontRememberName = ctx.authCookies.dontRememberToken.name;
  const dontRemember = readSignedCookie(ctx, req, dontRememberName) ? "1" : "";
  const expiresIn = IMPERSONATION_SECONDS;
  await audit({
    actorUserId: admin.id,
    action: "user.impersonate",
    targetType: "user",
    targetId: target.id,
    after: { username: target.username, name: target.name, minutes: expiresIn / 60 },
  });
  const options: SessionOptions = { impersonatedBy: admin.id, expiresIn };
  await startSession(auth, target.id, reply, options);
  const adminCookie = ctx.createAuthCookie(ADMIN_COOKIE).name;
  const adminLeft = (new Date(own.session.expiresAt).getTime() - Date.now()) / 1000;
  setSignedCookie(ctx, reply, adminCookie, `${own.session.token}:${dontRemember}`, adminLeft);
  // better-auth's "don't remember me" mark: it never extends such a session, so the view stays an hour.
  setSignedCookie(ctx, reply, dontRememberName, "true", expiresIn);
}

/**
 * Ends the view and signs the administrator back in from their kept cookie. Only from the viewing
 * session that administrator opened: once it is gone (signed out, or past its hour) the kept
 * cookie opens nothing, so a browser left signed out never hands the administrator's session to
 * the next person. Answers the administrator's id.
 */
export async function stopImpersonation(
  auth: Auth,
  audit: AuditWriter,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const ctx = await auth.$context;
  const adminCookie = ctx.createAuthCookie(ADMIN_COOKIE).name;
  const kept = readSignedCookie(ctx, req, adminCookie);
  const [adminToken = "", dontRemember] = (kept ?? "").split(":");
  const adminSession = kept ? await ctx.internalAdapter.findSession(adminToken) : null;
  const adminUser = adminSession?.user as { id: string; isAdmin?: boolean | null } | undefined;
  const viewingToken = readSignedCookie(ctx, req, ctx.authCookies.sessionToken.name);
  const viewing = viewingToken ? await ctx.internalAdapter.findSession(viewingToken) : null;
  const view = viewing?.session as
    | { token: string; userId: string; impersonatedBy?: string | null }
    | undefined;
  if (!adminUser || !view?.impersonatedBy || view.impersonatedBy !== adminUser.id) {
    if (kept) clearCookie(ctx, reply, adminCookie);
    // Nothing to stop: a restricted account hears what it hears from every other change.
    assertNotRestricted(await getViewer(auth, req));
    throw new HttpError(400, "invalidRequest", "You are not viewing the site as another user.");
  }
  await ctx.internalAdapter.deleteSession(view.token);
  clearCookie(ctx, reply, adminCookie);
  if (!dontRemember) clearCookie(ctx, reply, ctx.authCookies.dontRememberToken.name);
  if (!adminUser.isAdmin || !adminSession || new Date(adminSession.session.expiresAt) <= new Date()) {
    clearCookie(ctx, reply, ctx.authCookies.sessionToken.name);
    throw new HttpError(401, "unauthorized", "Your administrator session has ended. Please sign in again.");
  }
  await audit({
    actorUserId: adminUser.id,
    action: "user.impersonation_stop",
    targetType: "user",
    targetId: view.userId,
  });
  const left = (new Date(adminSession.session.expiresAt).getTime() - Date.now()) / 1000;
  setSessionCookie(ctx, reply, adminToken, left);
  return adminUser.id;
}

import type { AccountStatus, Me, Permission, Restriction, SubscriberRole } from "@hearth/contract";
import type { FastifyRequest } from "fastify";
import { unauthorized } from "../../http/errors.ts";
import type { Auth } from "./auth.ts";
import { contextTokens, derivePermissions } from "./permissions.ts";
import { type SessionColumns, sessionReaderOf } from "./session-lookup.ts";

/** The signed-in person behind a request (a guest counts), with derived permissions. */
export interface Viewer {
  id: string;
  email: string | null;
  name: string;
  username: string | null;
  image: string | null;
  isGuest: boolean;
  role: SubscriberRole;
  status: AccountStatus;
  restriction: Restriction;
  isAdmin: boolean;
  permissions: Permission[];
  createdAt: Date;
  /** The administrator viewing the site as this user (a read-only session), or null. */
  impersonatedBy: { id: string; name: string } | null;
}

interface SessionUser {
  id: string;
  email: string;
  name: string;
  image?: string | null;
  createdAt: Date;
  isAnonymous?: boolean | null;
  username?: string | null;
  role?: string | null;
  status?: string | null;
  restriction?: string | null;
  isAdmin?: boolean | null;
}

export function viewerFromUser(u: SessionUser): Viewer {
  const subject = {
    isGuest: Boolean(u.isAnonymous),
    role: (u.role ?? "free") as SubscriberRole,
    status: (u.status ?? "inactive") as AccountStatus,
    restriction: (u.restriction ?? "none") as Restriction,
    isAdmin: Boolean(u.isAdmin),
  };
  return {
    id: u.id,
    email: subject.isGuest ? null : u.email,
    name: u.name,
    username: u.username ?? null,
    image: u.image ?? null,
    ...subject,
    permissions: derivePermissions(subject),
    createdAt: new Date(u.createdAt),
    impersonatedBy: null,
  };
}

export function toMe(v: Viewer): Me {
  return {
    id: v.id,
    email: v.email,
    name: v.name,
    username: v.username,
    avatar_url: v.image,
    role: v.role,
    status: v.status,
    restriction: v.restriction,
    is_guest: v.isGuest,
    is_admin: v.isAdmin,
    permissions: v.permissions,
    context_tokens: contextTokens(v.permissions),
    created_at: v.createdAt.toISOString(),
    impersonated_by: v.impersonatedBy,
  };
}

const cache = new WeakMap<FastifyRequest, Promise<Viewer | null>>();

/** Resolves the session cookie once per request. */
export function getViewer(auth: Auth, req: FastifyRequest): Promise<Viewer | null> {
  let pending = cache.get(req);
  if (!pending) {
    pending = resolveViewer(auth, req);
    cache.set(req, pending);
  }
  return pending;
}

/** Routes (`METHOD pattern`) of each auth instance whose session is read by their own statement. */
const ownSessionReads = new WeakMap<object, Set<string>>();

/**
 * Declares that a route reads its request's session itself, in the statement that reads its own
 * rows (`viewerFromRead`): nothing looks the session up ahead of it (impersonation.ts), so that
 * statement is the request's one round trip before its checks (issue 15 item 4).
 */
export function readsOwnSession(auth: Auth, method: string, pattern: string): void {
  const routes = ownSessionReads.get(auth) ?? new Set<string>();
  routes.add(`${method} ${pattern}`);
  ownSessionReads.set(auth, routes);
}

/** Whether this request's route reads its session itself (`readsOwnSession`). */
export function sessionReadByRoute(auth: Auth, req: FastifyRequest): boolean {
  return ownSessionReads.get(auth)?.has(`${req.method} ${req.routeOptions.url}`) ?? false;
}

/** The request's session token, if its cookie carries one signed with the auth's secret. */
export async function verifiedSessionToken(auth: Auth, req: FastifyRequest): Promise<string | null> {
  return (await sessionReaderOf(auth)?.token(req.headers.cookie)) ?? null;
}

/**
 * The request's viewer from a statement that read the session of `verifiedSessionToken` (joined
 * on `sessionOfToken`) beside a user row. It counts exactly as the lookup's own row would when
 * the session is that user's and usable; anything else (no row, no session, another user's
 * session, one better-auth must see, a failed read) is resolved the usual way.
 */
export function viewerFromRead(
  auth: Auth,
  req: FastifyRequest,
  read: Promise<{ session: SessionColumns | null; user: SessionUser | null } | null>,
): void {
  if (cache.has(req)) return;
  const reader = sessionReaderOf(auth);
  const usual = () => resolveViewer(auth, req);
  cache.set(
    req,
    read.then(async (found) => {
      const { session, user } = found ?? {};
      if (reader && session && user && session.userId === user.id && (await reader.usable(session)))
        return viewerFromUser(user);
      return usual();
    }, usual),
  );
}

/** How long an administrator may view the site as a user before signing in as themselves again. */
export const IMPERSONATION_SECONDS = 60 * 60;

async function resolveViewer(auth: Auth, req: FastifyRequest): Promise<Viewer | null> {
  const fast = await sessionReaderOf(auth)?.lookup({ cookie: req.headers.cookie });
  if (fast) return viewerFromUser(fast);
  const found = await auth.api.getSession({ headers: toHeaders(req.headers) });
  if (!found) return null;
  const viewer = viewerFromUser(found.user as SessionUser);
  const adminId = (found.session as { impersonatedBy?: string | null }).impersonatedBy;
  if (!adminId) return viewer;
  const ctx = await auth.$context;
  const admin = (await ctx.internalAdapter.findUserById(adminId)) as SessionUser | null;
  // The view ends after its hour even if something refreshed the session, and with the viewer's
  // administrator rights: those its permissions grant, so a restriction ends it too.
  const age = Date.now() - new Date(found.session.createdAt).getTime();
  const stillAdmin = admin !== null && viewerFromUser(admin).permissions.includes("admin");
  if (age >= IMPERSONATION_SECONDS * 1000 || !stillAdmin) {
    await ctx.internalAdapter.deleteSession(found.session.token);
    return null;
  }
  return { ...viewer, impersonatedBy: { id: adminId, name: admin.name } };
}

export async function requireViewer(auth: Auth, req: FastifyRequest): Promise<Viewer> {
  const viewer = await getViewer(auth, req);
  if (!viewer) throw unauthorized();
  return viewer;
}

export function toHeaders(raw: FastifyRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

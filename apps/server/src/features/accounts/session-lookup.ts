import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { sessions, users } from "./schema.ts";

/**
 * The session behind a cookie in one query (session joined to its user), for every request of a
 * signed-in member (issue 15 item 4: better-auth's getSession takes two round trips and its
 * endpoint machinery). Nothing is cached, so a signed-out or revoked session, or a changed role,
 * counts at once in every process. Anything unusual answers `undefined` and the caller asks
 * better-auth as before: no or a badly signed cookie, an expired session, one due for its daily
 * refresh (better-auth writes the new expiry), and an administrator's view as a user.
 */
export type FastSession = (u: { cookie: string | undefined }) => Promise<SessionUserRow | undefined>;

export type SessionUserRow = Awaited<ReturnType<ReturnType<typeof sessionUser>["execute"]>>[number]["user"];

const lookups = new WeakMap<object, FastSession>();

/** What the lookup needs of better-auth (its cookie's name, secret and session ages). */
interface AuthSettings {
  $context: Promise<{
    secret: string;
    authCookies: { sessionToken: { name: string } };
    sessionConfig: { expiresIn: number; updateAge: number };
  }>;
}

export function registerSessionLookup(auth: AuthSettings, db: Db): void {
  let settings: Promise<{ name: string; secret: string; expiresIn: number; updateAge: number }> | null = null;
  // Built and prepared once: every signed-in request runs it.
  const query = sessionUser(db);
  lookups.set(auth, async ({ cookie }) => {
    if (!cookie) return undefined;
    settings ??= auth.$context.then((ctx) => ({
      name: ctx.authCookies.sessionToken.name,
      secret: ctx.secret,
      expiresIn: ctx.sessionConfig.expiresIn,
      updateAge: ctx.sessionConfig.updateAge,
    }));
    const { name, secret, expiresIn, updateAge } = await settings;
    const token = signedToken(cookieValue(cookie, name), secret);
    if (!token) return undefined;
    const [row] = await query.execute({ token, now: new Date() });
    if (!row || row.session.impersonatedBy) return undefined;
    // better-auth moves the expiry on once the session is a day old: it does that write.
    const now = Date.now();
    if (row.session.expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 <= now) return undefined;
    return row.user;
  });
}

export function sessionLookupOf(auth: object): FastSession | undefined {
  return lookups.get(auth);
}

function sessionUser(db: Db) {
  return db
    .select({
      session: { expiresAt: sessions.expiresAt, impersonatedBy: sessions.impersonatedBy },
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        image: users.image,
        createdAt: users.createdAt,
        isAnonymous: users.isAnonymous,
        username: users.username,
        role: users.role,
        status: users.status,
        restriction: users.restriction,
        isAdmin: users.isAdmin,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.token, sql.placeholder("token")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .limit(1)
    .prepare("hearth_session_user");
}

/** The cookie's value as better-call reads it (first of that name, quotes off, URI-decoded). */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

/** `token.signature`, the signature better-call's HMAC-SHA256 (base64) of the token with the secret. */
function signedToken(value: string | null, secret: string): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

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

/** A session row as the lookup judges it. */
export interface SessionColumns {
  userId: string;
  expiresAt: Date;
  impersonatedBy: string | null;
}

/** What other parts of accounts (viewer.ts) use of one auth instance's lookup. */
export interface SessionReader {
  lookup: FastSession;
  /** The session token of a cookie signed with the auth's secret; null for anything else. */
  token(cookie: string | undefined): Promise<string | null>;
  /**
   * Whether a session row read by its token (and unexpired, `sessionOfToken`) stands for its
   * user without better-auth: not an administrator's view, and not due for its daily refresh.
   */
  usable(session: SessionColumns): Promise<boolean>;
}

const readers = new WeakMap<object, SessionReader>();

/** What the lookup needs of better-auth (its cookie's name, secret and session ages). */
interface AuthSettings {
  $context: Promise<{
    secret: string;
    authCookies: { sessionToken: { name: string } };
    sessionConfig: { expiresIn: number; updateAge: number };
  }>;
}

/**
 * The session of a verified token, still unexpired at `now`: in the lookup's statement, and
 * joined into another feature's statement that reads the session with its own rows (placeholders
 * `sessionToken` and `now`; viewer.ts `viewerFromRead`).
 */
export const sessionOfToken = and(
  eq(sessions.token, sql.placeholder("sessionToken")),
  gt(sessions.expiresAt, sql.placeholder("now")),
);
/** A user's columns a `Viewer` is made of (viewer.ts `viewerFromUser`), for any statement that reads one. */
export const viewerColumns = {
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
};

/** The session's columns such a statement selects, for `SessionReader.usable`. */
export const sessionColumns = {
  userId: sessions.userId,
  expiresAt: sessions.expiresAt,
  impersonatedBy: sessions.impersonatedBy,
};

export function registerSessionLookup(auth: AuthSettings, db: Db): void {
  let settings: Promise<{ name: string; secret: string; expiresIn: number; updateAge: number }> | null = null;
  const settingsOf = () =>
    (settings ??= auth.$context.then((ctx) => ({
      name: ctx.authCookies.sessionToken.name,
      secret: ctx.secret,
      expiresIn: ctx.sessionConfig.expiresIn,
      updateAge: ctx.sessionConfig.updateAge,
    })));
  // Built and prepared once: every signed-in request runs it.
  const query = sessionUser(db);
  const reader: SessionReader = {
    async token(cookie) {
      if (!cookie) return null;
      const { name, secret } = await settingsOf();
      return signedToken(cookieValue(cookie, name), secret);
    },
    async usable(session) {
      if (session.impersonatedBy) return false;
      // better-auth moves the expiry on once the session is a day old: it does that write.
      const { expiresIn, updateAge } = await settingsOf();
      return session.expiresAt.getTime() - expiresIn * 1000 + updateAge * 1000 > Date.now();
    },
    async lookup({ cookie }) {
      const token = await reader.token(cookie);
      if (!token) return undefined;
      const [row] = await query.execute({ sessionToken: token, now: new Date() });
      return row && (await reader.usable(row.session)) ? row.user : undefined;
    },
  };
  readers.set(auth, reader);
}

export function sessionReaderOf(auth: object): SessionReader | undefined {
  return readers.get(auth);
}

/** The lookup alone (tests). */
export function sessionLookupOf(auth: object): FastSession | undefined {
  return readers.get(auth)?.lookup;
}

function sessionUser(db: Db) {
  return db
    .select({
      session: sessionColumns,
      user: viewerColumns,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(sessionOfToken)
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

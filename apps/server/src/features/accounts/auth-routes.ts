import type { ApiError } from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import type { Mailer } from "../../ports/mail.ts";
import { guestAllowance, signUpAllowance, withinAllowance } from "./allowance.ts";
import type { Auth } from "./auth.ts";
import { type AuthBody, emailOf, fieldOf, readAuthBody } from "./auth-body.ts";
import { withRequester } from "./first-admin.ts";
import { type AttemptOutcome, PasswordAttempts, passwordAccountKey } from "./password-attempts.ts";
import { AuthCounters } from "./throttle.ts";
import { mailUnlockLink, resetTokenOwner } from "./unlock.ts";
import { toHeaders } from "./viewer.ts";

export interface AuthRoutesOptions {
  auth: Auth;
  db: Db;
  /** Guest sign-ins one address may make in 24 hours; 0 means no limit. */
  guestSignInsPerDay: number;
  /** New accounts one address may make in 24 hours; 0 means no limit. */
  signUpsPerDay: number;
  /** Sign-ins the whole site checks per minute (HEARTH_SIGNINS_PER_MINUTE); 0 means no limit. */
  signInsPerMinute: number;
  /** Whether client addresses come from X-Forwarded-For (HEARTH_TRUST_PROXY). */
  trustProxy: boolean;
  /** Where unlock links are mailed from when wrong passwords lock an account; null: no mail. */
  mail: { mailer: Mailer; brand: string; publicUrl: string | null } | null;
}

/**
 * better-auth paths that would write profile fields around Hearth's rules: every profile change
 * goes through PATCH /api/users/me. (Also in better-auth's `disabledPaths`; answered here so
 * the refusal is JSON that says where to go.)
 */
const CLOSED_PATHS = new Set(["/api/auth/update-user", "/api/auth/change-email"]);

/**
 * The sign-in methods there are. Any other /sign-in/ path is refused here, so a method a plugin
 * adds later cannot check passwords outside the throttle until it is guarded like email's.
 */
const SIGN_IN_PATHS = new Set([
  "/api/auth/sign-in/email",
  "/api/auth/sign-in/anonymous",
  "/api/auth/sign-in/social",
]);

/** Routes that check the signed-in account's current password. */
const PASSWORD_CHECK_PATHS = new Set(["/api/auth/change-password", "/api/auth/verify-password"]);

/**
 * Hands /api/auth/* to better-auth as a Fetch Request, after Hearth's own guards: every password
 * tried counted per account, per address and (sign-in) for the whole site, before it is checked
 * (password-attempts.ts); reset requests and reset links likewise; the guest sign-in and sign-up
 * allowances per address. Bodies arrive as raw strings and are read once here (auth-body.ts).
 */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const counters = new AuthCounters(opts.db);
  const guests = guestAllowance(opts.guestSignInsPerDay);
  const signUps = signUpAllowance(opts.signUpsPerDay);
  const mail = opts.mail;
  const attempts = new PasswordAttempts(opts.db, {
    signInsPerMinute: opts.signInsPerMinute,
    ...(mail && {
      onFirstAccountLock: (email, linkBase) =>
        mailUnlockLink({ db: opts.db, log: app.log, ...mail }, email, linkBase),
    }),
  });
  let proxyWarned = false;
  const warnAboutProxy = (req: FastifyRequest) => {
    const warning = proxyWarned ? null : untrustedProxyWarning(opts.trustProxy, req.headers);
    if (!warning) return;
    proxyWarned = true;
    req.log.warn(warning);
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    async handler(req, reply) {
      // The same URL better-auth routes by, so a guard sees exactly the path better-auth will.
      const url = new URL(req.url, `${req.protocol}://${req.headers.host ?? "localhost"}`);
      const path = guardedPath(url.pathname);
      if (CLOSED_PATHS.has(path)) {
        throw notFound("Profile changes go through PATCH /api/users/me.");
      }
      const body = readAuthBody(req);
      const forward = () => toBetterAuth(opts.auth, req, url, body);
      if (req.method !== "POST") return send(reply, await forward());
      warnAboutProxy(req);
      if (path.startsWith("/api/auth/sign-in/") && !SIGN_IN_PATHS.has(path)) {
        throw notFound("There is no such way to sign in.");
      }
      const email = emailOf(body);
      const linkBase = `${url.protocol}//${url.host}`;
      if (path === "/api/auth/sign-in/email") {
        const attempt = { kind: "password", email, ip: req.ip, site: true, linkBase } as const;
        return send(reply, await attempts.run(attempt, forward, signInOutcome));
      }
      if (PASSWORD_CHECK_PATHS.has(path)) {
        const session = await opts.auth.api.getSession({ headers: toHeaders(req.headers) }).catch(() => null);
        // Without a session better-auth checks no password, only answers 401.
        if (!session) return send(reply, await forward());
        const attempt = { kind: "password", email: session.user.email.toLowerCase(), ip: req.ip } as const;
        return send(reply, await attempts.run(attempt, forward, (r) => codeOutcome(r, "INVALID_PASSWORD")));
      }
      if (path === "/api/auth/request-password-reset") {
        // Every request counts: each may send a mail, and none is a guess to forgive.
        const attempt = { kind: "resetRequest", email, ip: req.ip } as const;
        return send(reply, await attempts.run(attempt, forward, (r) => (r.ok ? "wrong" : "other")));
      }
      if (path === "/api/auth/reset-password") {
        // Counted per address only: a token names its account only once it is found to be right.
        const attempt = { kind: "resetLink", email: null, ip: req.ip } as const;
        const owner = await resetTokenOwner(opts.db, fieldOf(body, "token"));
        const response = await attempts.run(attempt, forward, (r) => codeOutcome(r, "INVALID_TOKEN"));
        if (response.ok && owner) await counters.clear(passwordAccountKey(owner));
        return send(reply, response);
      }
      // A failed attempt (better-auth's refusal) gives its use back.
      const failed = (response: Response) => !response.ok;
      if (path === "/api/auth/sign-in/anonymous") {
        return send(reply, await withinAllowance(counters, guests, req, reply, forward, failed));
      }
      if (path === "/api/auth/sign-up/email") {
        return send(reply, await withinAllowance(counters, signUps, req, reply, forward, failed));
      }
      return send(reply, await forward());
    },
  });
}

/**
 * The path as the guards compare it: decoded, lowercased, without trailing slashes. better-auth
 * answers 404 to most of these spellings, but a guard that matches them all cannot be walked
 * around by one it would not.
 */
function guardedPath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Malformed escapes: compared as they are (better-auth finds no route for them).
  }
  return decoded
    .toLowerCase()
    .replace(/\/+/g, "/")
    .replace(/(.)\/$/, "$1");
}

/** A wrong password or an unknown address (both better-auth's 401, so no account is revealed). */
const signInOutcome = (response: Response): AttemptOutcome =>
  response.status === 401 ? "wrong" : response.ok ? "right" : "other";

/** Wrong when better-auth refused with this code (read from a copy of the answer). */
async function codeOutcome(response: Response, wrongCode: string): Promise<AttemptOutcome> {
  if (response.ok) return "right";
  const code = await response
    .clone()
    .json()
    .then((json: unknown) => (json as { code?: unknown } | null)?.code)
    .catch(() => null);
  return code === wrongCode ? "wrong" : "other";
}

async function toBetterAuth(auth: Auth, req: FastifyRequest, url: URL, body: AuthBody): Promise<Response> {
  // Who is asking, for the first-administrator rule (first-admin.ts).
  let headers = withRequester(toHeaders(req.headers), req);
  if (req.method === "POST" && /^\/api\/auth\/sign-(in|up)\//.test(url.pathname)) {
    headers = await withoutDeadSession(auth, headers);
  }
  if (body.present) {
    headers = new Headers(headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
  }
  return auth.handler(
    new Request(url, { method: req.method, headers, body: body.present ? body.json : undefined }),
  );
}

/**
 * A sign-in or sign-up that still carries the cookie of a session that no longer opens (signed
 * out, revoked, expired): after signing in, better-auth's guest plugin looks that session up,
 * finds none and clears the session cookie, replacing the new session's, so the member was told
 * they were signed in and was not. Such a cookie is left out of what better-auth is sent; a live
 * one (a guest signing up) goes through as it is.
 */
async function withoutDeadSession(auth: Auth, headers: Headers): Promise<Headers> {
  const cookie = headers.get("cookie");
  if (!cookie) return headers;
  const { authCookies } = await auth.$context;
  const session = authCookies.sessionToken.name;
  const pairs = cookie.split(";").map((pair) => pair.trim());
  if (!pairs.some((pair) => pair.startsWith(`${session}=`))) return headers;
  if (await auth.api.getSession({ headers }).catch(() => null)) return headers;
  const names = [session, authCookies.sessionData.name, authCookies.dontRememberToken.name];
  const kept = pairs.filter((pair) => pair && !names.some((name) => pair.startsWith(`${name}=`)));
  const out = new Headers(headers);
  if (kept.length > 0) out.set("cookie", kept.join("; "));
  else out.delete("cookie");
  return out;
}

async function send(reply: FastifyReply, response: Response) {
  reply.status(response.status);
  for (const [key, value] of response.headers) {
    // Cookies are set below as a list; the length changes when tokens are taken out.
    if (key === "set-cookie" || key === "content-length") continue;
    reply.header(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : Buffer.alloc(0);
  if (body.length === 0) {
    const refusal = bodilessRefusal(response.status);
    if (!refusal) return reply.send(null);
    reply.header("content-type", "application/json; charset=utf-8");
    return reply.send(refusal);
  }
  return reply.send(
    response.headers.get("content-type")?.includes("json") ? withoutSessionTokens(body) : body,
  );
}

/**
 * Some of better-auth's refusals carry no body (a disabled route's 404, say): they get Hearth's
 * `{ code, message }`, so every 4xx a client sees says what went wrong.
 */
function bodilessRefusal(status: number): ApiError | null {
  if (status < 400 || status >= 500) return null;
  const known: Record<number, ApiError> = {
    400: { code: "invalidRequest", message: "The request is not valid." },
    401: { code: "unauthorized", message: "Please sign in." },
    403: { code: "forbidden", message: "You are not allowed to do this." },
    404: { code: "notFound", message: "Not found" },
    415: { code: "unsupportedMediaType", message: "This content type is not accepted here." },
    429: { code: "rateLimited", message: "Too many requests. Please slow down." },
  };
  return known[status] ?? { code: "invalidRequest", message: "The request was refused." };
}

/**
 * better-auth puts session tokens in JSON: sign-in and sign-up answers, `session.token` in
 * get-session, each session of list-sessions. The cookie already carries the token (httpOnly);
 * keeping it out of page-readable JSON means a script on the page can never steal a session.
 */
function withoutSessionTokens(body: Buffer): Buffer {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return body; // Not JSON after all: pass it through untouched.
  }
  return Buffer.from(JSON.stringify(dropTokens(json)));
}

function dropTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropTokens);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key !== "token") out[key] = dropTokens(inner);
  }
  return out;
}

/**
 * Limits per address mean one address for everyone behind a proxy Hearth does not trust: the
 * warning to log once, instead of letting guests and sign-ins lock each other out in silence.
 */
export function untrustedProxyWarning(
  trustProxy: boolean,
  headers: Record<string, string | string[] | undefined>,
): string | null {
  if (trustProxy || !headers["x-forwarded-for"]) return null;
  return "requests arrive through a proxy (X-Forwarded-For) but HEARTH_TRUST_PROXY is off: every client counts as the proxy's address for sign-in throttling and the guest allowance";
}

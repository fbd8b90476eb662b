import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { guestAllowance, inWords, signUpAllowance, withinAllowance } from "./allowance.ts";
import type { Auth } from "./auth.ts";
import { ACCOUNT_RULE, ADDRESS_RULE, AuthCounters, addressKey } from "./throttle.ts";
import { withRequester } from "./first-admin.ts";
import { toHeaders } from "./viewer.ts";

export interface AuthRoutesOptions {
  auth: Auth;
  db: Db;
  /** Guest sign-ins one address may make in 24 hours; 0 means no limit. */
  guestSignInsPerDay: number;
  /** New accounts one address may make in 24 hours; 0 means no limit. */
  signUpsPerDay: number;
  /** Whether client addresses come from X-Forwarded-For (HEARTH_TRUST_PROXY). */
  trustProxy: boolean;
}

/**
 * better-auth paths that would write profile fields around Hearth's rules: every profile change
 * goes through PATCH /api/users/me. (Also in better-auth's `disabledPaths`; answered here so
 * the refusal is JSON that says where to go.)
 */
const CLOSED_PATHS = new Set(["/api/auth/update-user", "/api/auth/change-email"]);

/**
 * Hands /api/auth/* to better-auth as a Fetch Request, after Hearth's own guards: sign-in
 * throttling per account and per address, and the guest sign-in allowance per address. Bodies
 * stay raw strings in this scope, because better-auth parses them itself.
 */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const counters = new AuthCounters(opts.db);
  const guests = guestAllowance(opts.guestSignInsPerDay);
  const signUps = signUpAllowance(opts.signUpsPerDay);
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
      const forward = () => toBetterAuth(opts.auth, req, url);
      if (CLOSED_PATHS.has(url.pathname)) {
        throw notFound("Profile changes go through PATCH /api/users/me.");
      }
      if (req.method === "POST") warnAboutProxy(req);
      if (req.method === "POST" && url.pathname === "/api/auth/sign-in/email") {
        return send(reply, await throttledSignIn(counters, req, reply, forward));
      }
      // A failed attempt (better-auth's refusal) gives its use back.
      const failed = (response: Response) => !response.ok;
      if (req.method === "POST" && url.pathname === "/api/auth/sign-in/anonymous") {
        return send(reply, await withinAllowance(counters, guests, req, reply, forward, failed));
      }
      if (req.method === "POST" && url.pathname === "/api/auth/sign-up/email") {
        return send(reply, await withinAllowance(counters, signUps, req, reply, forward, failed));
      }
      return send(reply, await forward());
    },
  });
}

async function toBetterAuth(auth: Auth, req: FastifyRequest, url: URL): Promise<Response> {
  const hasBody = req.method !== "GET" && typeof req.body === "string" && req.body.length > 0;
  // Who is asking, for the first-administrator rule (first-admin.ts).
  let headers = withRequester(toHeaders(req.headers), req);
  if (req.method === "POST" && /^\/api\/auth\/sign-(in|up)\//.test(url.pathname)) {
    headers = await withoutDeadSession(auth, headers);
  }
  return auth.handler(
    new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (req.body as string) : undefined,
    }),
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

/**
 * Refused while the account or the address is locked; a wrong password (better-auth's 401)
 * counts against both, a success clears the account's count. An unknown address counts like a
 * wrong password, so the answer never tells which accounts exist.
 */
async function throttledSignIn(
  counters: AuthCounters,
  req: FastifyRequest,
  reply: FastifyReply,
  forward: () => Promise<Response>,
): Promise<Response> {
  const email = emailOf(req.body);
  const address = `signin-address:${addressKey(req.ip)}`;
  const account = email ? `signin-account:${email}` : null;
  const wait = await counters.lockedFor(account ? [address, account] : [address]);
  if (wait > 0) {
    reply.header("retry-after", String(wait));
    throw new HttpError(
      429,
      "tooManyAttempts",
      `Too many failed sign-ins. Please wait ${inWords(wait)} before trying again.`,
    );
  }
  const response = await forward();
  if (response.status === 401) {
    await counters.fail(address, ADDRESS_RULE);
    if (account) await counters.fail(account, ACCOUNT_RULE);
  } else if (response.ok && account) {
    await counters.clear(account);
  }
  return response;
}

/** The sign-in address from a raw JSON body, as better-auth compares it (lowercased). */
function emailOf(body: unknown): string | null {
  if (typeof body !== "string") return null;
  try {
    const email = (JSON.parse(body) as { email?: unknown } | null)?.email;
    // Longer than any address: better-auth refuses it anyway, and it would only bloat a key.
    if (typeof email !== "string" || email.length > 320) return null;
    return email.trim().toLowerCase() || null;
  } catch {
    return null;
  }
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
  if (!response.body) return reply.send(null);
  const body = Buffer.from(await response.arrayBuffer());
  return reply.send(
    response.headers.get("content-type")?.includes("json") ? withoutSessionTokens(body) : body,
  );
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

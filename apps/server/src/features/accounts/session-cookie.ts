import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Auth } from "./auth.ts";

/**
 * better-auth sessions opened outside its own routes (partner sign-in, external sign-up, an
 * administrator viewing as a user), with cookies written the way better-auth writes and reads
 * them: `value.base64(HMAC-SHA256(secret, value))`, URI-encoded, under its cookie attributes.
 */

type AuthContext = Awaited<Auth["$context"]>;

export interface SessionOptions {
  /** The administrator viewing the site as this account (sessions.impersonated_by). */
  impersonatedBy?: string;
  /** Seconds the session lives; better-auth's configured lifetime when absent. */
  expiresIn?: number;
}

/** Starts a better-auth session for the account and sets its cookie on the reply; answers its token. */
export async function startSession(
  auth: Auth,
  userId: string,
  reply: FastifyReply,
  opts: SessionOptions = {},
): Promise<{ token: string; expiresAt: Date }> {
  const ctx = await auth.$context;
  const expiresIn = opts.expiresIn ?? ctx.sessionConfig.expiresIn;
  const session = opts.impersonatedBy
    ? // overrideAll: better-auth would otherwise replace the short expiry with its own.
      await ctx.internalAdapter.createSession(
        userId,
        true,
        { impersonatedBy: opts.impersonatedBy, expiresAt: new Date(Date.now() + expiresIn * 1000) },
        true,
      )
    : await ctx.internalAdapter.createSession(userId);
  if (!session) throw new Error("could not create a session");
  setSessionCookie(ctx, reply, session.token, expiresIn);
  return { token: session.token, expiresAt: new Date(session.expiresAt) };
}

/** Points the session cookie at a session's token. */
export function setSessionCookie(ctx: AuthContext, reply: FastifyReply, token: string, maxAge: number): void {
  setSignedCookie(ctx, reply, ctx.authCookies.sessionToken.name, token, maxAge);
}

/** A cookie signed with better-auth's secret, with the session cookie's attributes (httpOnly, SameSite, Secure). */
export function setSignedCookie(
  ctx: AuthContext,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAge: number,
): void {
  const attrs = ctx.authCookies.sessionToken.attributes;
  void reply.setCookie(name, encodeURIComponent(`${value}.${sign(ctx.secret, value)}`), {
    path: attrs.path ?? "/",
    httpOnly: true,
    secure: attrs.secure ?? false,
    sameSite: (attrs.sameSite ?? "lax") as "lax" | "strict" | "none",
    maxAge: Math.max(0, Math.floor(maxAge)),
    encode: (v) => v,
  });
}

/** Clears a cookie set by setSignedCookie. */
export function clearCookie(ctx: AuthContext, reply: FastifyReply, name: string): void {
  const attrs = ctx.authCookies.sessionToken.attributes;
  void reply.clearCookie(name, { path: attrs.path ?? "/" });
}

/** A signed cookie's value when its signature is good, else null (missing, tampered, or another secret). */
export function readSignedCookie(ctx: AuthContext, req: FastifyRequest, name: string): string | null {
  const raw = req.cookies[name];
  if (!raw) return null;
  const at = raw.lastIndexOf(".");
  if (at < 1) return null;
  const value = raw.slice(0, at);
  const given = Buffer.from(raw.slice(at + 1), "base64");
  const expected = Buffer.from(sign(ctx.secret, value), "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
}

const sign = (secret: string, value: string) => createHmac("sha256", secret).update(value).digest("base64");

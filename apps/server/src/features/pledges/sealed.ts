import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";

/**
 * Small signed values for the linking flow: the OAuth `state` and the transient id of a result.
 * Signed rather than stored, so every process of a scale-out reads them without a shared table,
 * and each carries its own expiry. `bound` (the member and the service) is signed but not sent:
 * a value opens only for the member it was made for, so another site cannot finish a link in
 * their name, and the value stays short enough for a path segment. Not secret: they say nothing
 * the member does not know.
 */

type Purpose = "state" | "result";

/** 128 bits of HMAC-SHA256: ample against forgery, and short in an address. */
const MAC_BYTES = 16;

const keyOf = (secret: string, purpose: Purpose) =>
  createHmac("sha256", secret).update(`hearth:pledges:${purpose}`).digest();

const mac = (secret: string, purpose: Purpose, bound: string, body: string) =>
  createHmac("sha256", keyOf(secret, purpose))
    .update(`${bound}\n${body}`)
    .digest()
    .subarray(0, MAC_BYTES)
    .toString("base64url");

/** `payload` with an expiry `ttlSeconds` from `now`, as `<base64url json>.<signature>`. */
export function seal(
  secret: string,
  purpose: Purpose,
  bound: string,
  payload: object,
  ttlSeconds: number,
  now: Date,
): string {
  const body = Buffer.from(
    JSON.stringify({ ...payload, exp: Math.floor(now.getTime() / 1000) + ttlSeconds }),
  ).toString("base64url");
  return `${body}.${mac(secret, purpose, bound, body)}`;
}

/** The payload when the signature holds for `bound`, the shape fits and it has not expired; else null. */
export function unseal<T>(
  secret: string,
  purpose: Purpose,
  bound: string,
  token: string,
  shape: z.ZodType<T>,
  now: Date,
): T | null {
  const [body, signature, ...rest] = token.split(".");
  if (!body || !signature || rest.length) return null;
  const expected = Buffer.from(mac(secret, purpose, bound, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const exp = (json as { exp?: unknown } | null)?.exp;
  if (typeof exp !== "number" || exp * 1000 <= now.getTime()) return null;
  const parsed = shape.safeParse(json);
  return parsed.success ? parsed.data : null;
}

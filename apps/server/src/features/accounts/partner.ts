import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { username as usernameRule } from "@hearth/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { repairName, USERNAME_TAKEN, violates } from "./profile-rules.ts";
import { usernameTaken } from "./queries.ts";
import { isReservedUsername, USERNAME_RESERVED } from "./reserved-names.ts";
import { users } from "./schema.ts";
import { type Viewer, viewerFromUser } from "./viewer.ts";

/**
 * Partner mode (accounts-billing-admin §4): a partner signs its user in with a compact token,
 * `base64url(JSON {sub, name, username?, exp}) + "." + base64url(HMAC-SHA256(key, first part))`
 * (docs/partner-mode.md). Sessions stay better-auth's: the account's session is made through its
 * own adapter and cookie settings (`startSession` in session-cookie.ts), so everything after
 * sign-in is the ordinary path.
 */
export interface PartnerClaims {
  /** The partner's own id for its user; stored as users.partner_id. */
  sub: string;
  name: string;
  username?: string;
  /** Seconds since the epoch. */
  exp: number;
}

const refused = (message: string) => new HttpError(401, "unauthorized", message);

/** Checks signature and expiry; throws 401 for a forged, malformed or expired token, or none configured. */
export function verifyPartnerToken(token: string, key: string | null, now = Date.now()): PartnerClaims {
  if (!key) throw refused("Partner sign-in is not configured.");
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) throw refused("The partner token is malformed.");
  const expected = createHmac("sha256", key).update(body).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refused("The partner token's signature is not valid.");
  }
  let claims: Partial<PartnerClaims>;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<PartnerClaims>;
  } catch {
    throw refused("The partner token is malformed.");
  }
  if (typeof claims.sub !== "string" || !claims.sub || claims.sub.length > 200) {
    throw refused("The partner token names no user.");
  }
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= now)
    throw refused("The partner token has expired.");
  return {
    sub: claims.sub,
    name: typeof claims.name === "string" ? claims.name : "",
    exp: claims.exp,
    ...(typeof claims.username === "string" && { username: claims.username }),
  };
}

/** Signs claims the way a partner does (tests and docs/partner-mode.md's example). */
export function signPartnerToken(claims: PartnerClaims, key: string): string {
  const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

/**
 * The partner's user: found by partner id, else created (a taken, reserved or invalid username is
 * left for onboarding). `brand`: the site's name, reserved like Hearth's own names.
 */
export async function partnerAccount(db: Db, claims: PartnerClaims, brand: string): Promise<Viewer> {
  const [found] = await db.select().from(users).where(eq(users.partnerId, claims.sub)).limit(1);
  if (found) return viewerFromUser(found);
  const wanted = usernameRule.safeParse(claims.username ?? "").data ?? null;
  const allowed = wanted && !isReservedUsername(wanted, brand) ? wanted : null;
  const username = allowed && !(await usernameTaken(db, allowed)) ? allowed : null;
  const name = repairName(claims.name);
  try {
    return await insertExternal(db, { name, username, partnerId: claims.sub });
  } catch (error) {
    // Two first sign-ins at once: the other one created it.
    const [row] = await db.select().from(users).where(eq(users.partnerId, claims.sub)).limit(1);
    if (row) return viewerFromUser(row);
    throw error;
  }
}

/** /external/signup: a new external account with the name and username typed (checked by the contract). */
export async function createExternalUser(
  db: Db,
  fields: { name: string; username: string },
  brand: string,
): Promise<Viewer> {
  if (isReservedUsername(fields.username, brand)) throw new HttpError(409, "conflict", USERNAME_RESERVED);
  if (await usernameTaken(db, fields.username)) throw new HttpError(409, "conflict", USERNAME_TAKEN);
  try {
    return await insertExternal(db, { ...fields, partnerId: `external:${randomUUID()}` });
  } catch (error) {
    if (violates(error, "23505", "users_username_key")) throw new HttpError(409, "conflict", USERNAME_TAKEN);
    throw error;
  }
}

async function insertExternal(
  db: Db,
  fields: { name: string; username: string | null; partnerId: string },
): Promise<Viewer> {
  const id = randomUUID();
  const [row] = await db
    .insert(users)
    .values({
      id,
      name: fields.name,
      // Partner users sign in only by token or this session; the address is a placeholder nobody receives.
      email: `${id}@partner.hearth.invalid`,
      username: fields.username,
      partnerId: fields.partnerId,
      // Partner mode forces NSFW on (§4); adulthood is the partner's to check.
      showNsfw: true,
    })
    .returning();
  if (!row) throw new Error("could not create the partner account");
  return viewerFromUser(row);
}

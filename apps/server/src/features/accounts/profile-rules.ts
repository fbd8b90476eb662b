import {
  avatarAddress,
  displayName,
  emailAddress,
  hasVisibleCharacter,
  NAME_MAX,
  type ProfileUpdate,
  username,
} from "@hearth/contract";
import type { z } from "zod";
import type { Config } from "../../config.ts";
import { HttpError } from "../../http/errors.ts";
import { decryptLlmKey, encryptLlmKey } from "./llm-key.ts";
import { isReservedUsername, USERNAME_RESERVED } from "./reserved-names.ts";
import type { UserRow } from "./schema.ts";

/**
 * The one set of profile rules (accounts-billing-admin §5) for every path that writes a user:
 * Hearth's PATCH /api/users/me parses its body with the same contract schemas, and better-auth's
 * user create and update hooks (sign-up, guests, the login provider) call `checkUserFields`.
 */

export const USERNAME_TAKEN = "Username is not available";
export const EMAIL_TAKEN = "This email address is already used by another account.";

export class ProfileRuleError extends Error {
  constructor(
    readonly field: "username" | "name" | "image" | "email",
    message: string,
  ) {
    super(message);
  }
}

/** User fields as better-auth writes them (`image` is the contract's `avatar_url`). */
export interface UserFields {
  username?: unknown;
  name?: unknown;
  image?: unknown;
  email?: unknown;
}

/** The same fields, checked. */
export interface CheckedFields {
  username?: string | null;
  name?: string;
  image?: string | null;
  email?: string;
}

/**
 * `typed`: a person entered these (sign-up, a profile change), so a broken rule is refused with
 * the spec's message. `provided`: they came from the login provider or are a guest's defaults, so
 * they are repaired instead and signing in never fails on them.
 */
export type FieldSource = "typed" | "provided";

/**
 * Checks and normalises the fields present; answers only those (absent stays absent). `brand` is
 * the site's name, reserved as a username beside Hearth's own names (reserved-names.ts).
 */
export function checkUserFields(fields: UserFields, source: FieldSource, brand: string): CheckedFields {
  const out: CheckedFields = {};
  if ("username" in fields && fields.username !== undefined) {
    const raw = fields.username;
    const reserved = typeof raw === "string" && isReservedUsername(raw, brand);
    if (raw === null || raw === "") out.username = null;
    else if (source === "typed") {
      // Before the alphabet, so a look-alike from another script hears why it is refused.
      if (reserved) throw new ProfileRuleError("username", USERNAME_RESERVED);
      out.username = strictly("username", username, raw);
    }
    // A provider's reserved name is left for the member to replace at onboarding.
    else out.username = reserved ? null : (username.safeParse(raw).data ?? null);
  }
  if ("name" in fields && fields.name !== undefined) {
    out.name = source === "typed" ? strictly("name", displayName, fields.name) : repairName(fields.name);
  }
  if ("image" in fields && fields.image !== undefined) {
    const raw = fields.image;
    if (raw === null || raw === "") out.image = null;
    else if (source === "typed") out.image = strictly("image", avatarAddress, raw);
    else out.image = avatarAddress.safeParse(raw).data ?? null;
  }
  if ("email" in fields && fields.email !== undefined) {
    // better-auth checks a typed address itself; a provider's is taken as it is, lowercased.
    out.email =
      source === "typed" ? strictly("email", emailAddress, fields.email) : String(fields.email).toLowerCase();
  }
  return out;
}

function strictly<S extends z.ZodType>(
  field: ProfileRuleError["field"],
  schema: S,
  raw: unknown,
): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ProfileRuleError(field, parsed.error.issues[0]?.message ?? `The ${field} is not valid.`);
  }
  return parsed.data;
}

/** A provider's display name: hidden characters dropped, cut to the maximum, never blank. */
export function repairName(raw: unknown): string {
  const cleaned = String(raw ?? "")
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, "")
    .trim();
  // Cut by characters, so an emoji is never split in half.
  const cut = Array.from(cleaned).slice(0, NAME_MAX).join("").trim();
  return hasVisibleCharacter(cut) ? cut : "Member";
}

/** A username the person chose, checked against the reserved names; throws the field's 400. */
export function refuseReservedUsername(name: string | null | undefined, brand: string): void {
  if (name && isReservedUsername(name, brand)) {
    throw new HttpError(400, "invalidRequest", USERNAME_RESERVED, [
      { path: "username", message: USERNAME_RESERVED },
    ]);
  }
}

/** True for PostgreSQL's unique (23505) or check (23514) violation of the named constraint; drizzle wraps driver errors in `cause`. */
export function violates(error: unknown, code: "23505" | "23514", constraint: string): boolean {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; ) {
    if (e.code === code) return e.constraint === constraint;
    e = e.cause as typeof e;
  }
  return false;
}

export const highlightsTooLong = (max: number) => `Highlights should be less than ${max} characters`;
export const ADULT_CONFIRMATION_NEEDED =
  "Please confirm that you are 18 years or older to turn on NSFW content.";

export type SettingsColumns = Partial<
  Pick<UserRow, "highlights" | "showNsfw" | "adultConfirmedAt" | "llmApiKeyEncrypted" | "llmMode">
>;

/**
 * The profile's own settings in a PATCH (highlights, NSFW, the external model key and its mode),
 * checked against the stored row and answered as columns to write: only what changes.
 */
export function settingsChange(row: UserRow, body: ProfileUpdate, config: Config): SettingsColumns {
  const out: SettingsColumns = {};
  if (body.highlights !== undefined && body.highlights !== row.highlights) {
    const max = config.profile.highlightsMax;
    if (Array.from(body.highlights).length > max) throw invalidField("highlights", highlightsTooLong(max));
    out.highlights = body.highlights;
  }
  if (body.show_nsfw !== undefined && body.show_nsfw !== row.showNsfw) {
    if (body.show_nsfw && !row.adultConfirmedAt) {
      if (body.confirm_adult !== true) throw invalidField("confirm_adult", ADULT_CONFIRMATION_NEEDED);
      out.adultConfirmedAt = new Date();
    }
    out.showNsfw = body.show_nsfw;
  }
  if (body.openai_api_key !== undefined) {
    const key = body.openai_api_key || null;
    if (key !== decryptLlmKey(config.secret, row.llmApiKeyEncrypted)) {
      out.llmApiKeyEncrypted = key ? encryptLlmKey(config.secret, key) : null;
    }
  }
  if (body.openai_mode !== undefined && body.openai_mode !== row.llmMode) out.llmMode = body.openai_mode;
  return out;
}

const invalidField = (path: string, message: string) =>
  new HttpError(400, "invalidRequest", message, [{ path, message }]);

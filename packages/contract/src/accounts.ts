import { z } from "zod";
import { queryInt32 } from "./integers.ts";
import { accountStatus, permission, restriction, subscriberRole } from "./permissions.ts";

/** Account limits (accounts-billing-admin §5, §9), imported by the server's checks and the web's forms. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const NAME_MIN = 3;
export const NAME_MAX = 20;
export const EMAIL_MAX = 320;
export const AVATAR_URL_MAX = 2048;
/** Passwords: better-auth enforces the length; the server also refuses the most common ones. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * A username as stored: NFKC-folded (full-width letters become ASCII), lowercased, and then only
 * ASCII letters, digits, `_` and `-`, so `ALICE`, `ａｌｉｃｅ` and `alice` are one name and a
 * look-alike from another script (Cyrillic `а`) is refused rather than stored beside it.
 */
export const username = z
  .string()
  .trim()
  .normalize("NFKC")
  .toLowerCase()
  .min(1, "Username can't be empty")
  .min(USERNAME_MIN, "Username is too short")
  .max(USERNAME_MAX, "Username should be less then 20 characters")
  .regex(/^[a-z0-9_-]*$/, "Username contain invalid characters");

/** Control characters and bidirectional overrides can hide or reorder what a name shows. */
const HIDDEN_CHARACTERS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * What shows nothing by itself: spaces, format characters (zero-width joiners, the BOM),
 * combining marks, and the blank letters some scripts have (Hangul fillers, the braille blank).
 */
const INVISIBLE_CHARACTERS = /[\p{Z}\p{Cc}\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u2800]/gu;

/** Whether a name has something to see: one made only of invisible or combining characters has not. */
export function hasVisibleCharacter(value: string): boolean {
  return value.replace(INVISIBLE_CHARACTERS, "").length > 0;
}

export const NAME_INVISIBLE = "Name must contain letters or other visible characters";

/** A display name (accounts-billing-admin §5): 3 to 20 characters after trimming. */
export const displayName = z
  .string()
  .trim()
  .min(1, "Name can't be empty")
  .min(NAME_MIN, "Name should be of atleast 3 characters")
  .max(NAME_MAX, "Name should be less then 20 characters")
  .refine((v) => !HIDDEN_CHARACTERS.test(v), "Name can't contain control characters")
  .refine(hasVisibleCharacter, NAME_INVISIBLE);

/** A sign-in address: lowercased, as better-auth stores it. */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Email can not be empty")
  .max(EMAIL_MAX, "Email should be at most 320 characters")
  .regex(z.regexes.email, "Please enter a valid email address");

/** Where Hearth serves uploaded files (avatars): a same-origin path, never a script. */
const HEARTH_FILE_PATH = /^\/api\/files\/(?!.*\.\.)[A-Za-z0-9._/-]+$/;

/** An avatar is an http(s) address or a file Hearth serves; `javascript:`, `data:` and the like are not. */
export function isSafeImageAddress(value: string): boolean {
  if (HEARTH_FILE_PATH.test(value)) return !value.includes("//");
  if (/[\s\p{Cc}]/u.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
}

export const avatarAddress = z
  .string()
  .trim()
  .max(AVATAR_URL_MAX, "Image address should be at most 2048 characters")
  .refine(isSafeImageAddress, "Image must be an http(s) address or a file uploaded to this site");

/** Upper bound of highlights in any configuration; the server's HEARTH_HIGHLIGHTS_MAX is the real one. */
export const HIGHLIGHTS_LIMIT = 1000;
/** The external language-model key (accounts-billing-admin §5). */
export const LLM_KEY_MAX = 200;
/** disabled: never the member's key; enabled: always; hybrid: when the server is busy or lacks the model. */
export const llmMode = z.enum(["disabled", "enabled", "hybrid"]);
export type LlmMode = z.infer<typeof llmMode>;

/** PATCH /api/users/me: only the fields that changed; `avatar_url: null` removes the avatar. */
export const profileUpdate = z
  .object({
    username: username.optional(),
    name: displayName.optional(),
    avatar_url: avatarAddress.nullable().optional(),
    email: emailAddress.optional(),
    /** Checked against the configured maximum (HEARTH_HIGHLIGHTS_MAX) by the server. */
    highlights: z.string().trim().max(HIGHLIGHTS_LIMIT).optional(),
    /** Turning NSFW on the first time needs `confirm_adult: true` (the 18+ question, asked once). */
    show_nsfw: z.boolean().optional(),
    confirm_adult: z.literal(true).optional(),
    /** The external language-model key; null or "" removes it. Stored encrypted, never answered. */
    openai_api_key: z
      .string()
      .trim()
      .max(LLM_KEY_MAX, "The key should be at most 200 characters")
      .nullable()
      .optional(),
    openai_mode: llmMode.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");
export type ProfileUpdate = z.infer<typeof profileUpdate>;

/** GET /api/users/check-username?username= */
export const usernameCheckQuery = z.object({ username: z.string().max(100) });
export const usernameCheck = z.object({
  /** False when the name breaks the username rules or another account holds it. */
  isAvailable: z.boolean(),
});
export type UsernameCheck = z.infer<typeof usernameCheck>;

export const me = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string(),
  username: z.string().nullable(),
  avatar_url: z.string().nullable(),
  role: subscriberRole,
  status: accountStatus,
  restriction,
  is_guest: z.boolean(),
  is_admin: z.boolean(),
  permissions: z.array(permission),
  /** Context memory in tokens for 8K-class models; 16K models double the 8k_context tier. */
  context_tokens: z.number().int(),
  created_at: z.string(),
  /**
   * Set while an administrator views the site as this user (read-only): who is viewing. The
   * server always sends it; optional so older fixtures and clients still read as a Me.
   */
  impersonated_by: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
});
export type Me = z.infer<typeof me>;

/** Public configuration the client needs before sign-in (brand, sign-in options). */
export const appConfig = z.object({
  brand: z.object({ name: z.string(), accent: z.string() }),
  edition: z.enum(["roleplay", "family", "partner"]),
  /** Memory management is offered (hidden on the partner edition and flagged builds, §6). */
  memory_manager: z.boolean(),
  auth: z.object({
    email_password: z.boolean(),
    guests: z.boolean(),
    oidc: z.object({ provider_id: z.string(), label: z.string() }).nullable(),
    /** A fresh install where this visitor's sign-up (from its machine or through PUBLIC_URL) would make the administrator. */
    first_user_admin: z.boolean(),
    /** Members can ask for a password reset link by e-mail (SMTP_URL is set). */
    password_reset: z.boolean(),
  }),
  version: z.string(),
});
export type AppConfig = z.infer<typeof appConfig>;

export const adminUser = me.pick({
  id: true,
  email: true,
  name: true,
  username: true,
  role: true,
  status: true,
  restriction: true,
  is_guest: true,
  is_admin: true,
  created_at: true,
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUserList = z.object({
  users: z.array(adminUser),
  next_cursor: z.string().nullable(),
});
export type AdminUserList = z.infer<typeof adminUserList>;

/** Accounts per page on the admin users page. */
export const ADMIN_USER_PAGE_SIZE = 50;

export const adminUserListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  limit: queryInt32(1, 100).default(ADMIN_USER_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});

export const adminUserUpdate = z
  .object({
    role: subscriberRole.optional(),
    status: accountStatus.optional(),
    restriction: restriction.optional(),
    is_admin: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");
export type AdminUserUpdate = z.infer<typeof adminUserUpdate>;

/** GET /api/users/me/profile: what the profile settings page shows beyond /api/me. */
export const profileSettings = z.object({
  highlights: z.string(),
  /** HEARTH_HIGHLIGHTS_MAX: 'Highlights should be less than N characters'. */
  highlights_max: z.number().int(),
  show_nsfw: z.boolean(),
  /** The 18+ confirmation was given once; turning NSFW on again does not ask. */
  adult_confirmed: z.boolean(),
  /** Never the key itself: whether one is stored and its last four characters. */
  openai_key: z.object({ has_key: z.boolean(), last4: z.string().nullable() }),
  openai_mode: llmMode,
  /** HEARTH_PROFILE_LAYOUT: v1 wider, v2 narrower. */
  layout: z.enum(["v1", "v2"]),
});
export type ProfileSettings = z.infer<typeof profileSettings>;

/** A signed-in device of the account (profile settings: active sessions). */
export const activeSession = z.object({
  id: z.string(),
  user_agent: z.string().nullable(),
  ip_address: z.string().nullable(),
  created_at: z.string(),
  last_active_at: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSession>;
export const activeSessionList = z.object({ sessions: z.array(activeSession) });
export type ActiveSessionList = z.infer<typeof activeSessionList>;
export const sessionParams = z.object({ id: z.string().min(1).max(128) });
export const revokedSessions = z.object({ revoked: z.number().int() });

/** POST /api/users/me/password: the other sessions are signed out. */
export const passwordChange = z
  .object({
    current_password: z.string().min(1, "Enter your current password").max(PASSWORD_MAX_LENGTH),
    new_password: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .strict();
export type PasswordChange = z.infer<typeof passwordChange>;

/** GET/PUT /api/users/me/default-model: the model new chats start with; null is the server's default. */
export const defaultModel = z.object({ model_id: z.string().min(1).max(200).nullable() }).strict();
export type DefaultModel = z.infer<typeof defaultModel>;

import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Account tables. better-auth owns the shape of users/sessions/accounts/verifications
 * (its drizzle adapter maps to these); the columns after `updatedAt` on users are Hearth's.
 */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    isAnonymous: boolean("is_anonymous").notNull().default(false),
    username: text("username"),
    role: text("role", { enum: ["free", "minimal", "basic", "premium"] })
      .notNull()
      .default("free"),
    status: text("status", { enum: ["active", "cancelled", "grace", "expired", "inactive"] })
      .notNull()
      .default("inactive"),
    restriction: text("restriction", { enum: ["none", "limited", "temporary", "complete"] })
      .notNull()
      .default("none"),
    isAdmin: boolean("is_admin").notNull().default(false),
    /** The profile's highlights (accounts-billing-admin §2.2), 1-2 rows of text. */
    highlights: text("highlights").notNull().default(""),
    /** Storage key prefix of an uploaded avatar (as characters'), beside `image` from a login provider. */
    avatarKey: text("avatar_key"),
    /** The member's NSFW setting, kept on the server so it follows them; confirmed 18+ once. */
    showNsfw: boolean("show_nsfw").notNull().default(false),
    adultConfirmedAt: timestamp("adult_confirmed_at", { withTimezone: true }),
    /** The external language-model key, encrypted at rest (never sent back in full), and its mode. */
    llmApiKeyEncrypted: text("llm_api_key_encrypted"),
    llmMode: text("llm_mode", { enum: ["disabled", "enabled", "hybrid"] })
      .notNull()
      .default("disabled"),
    /** The model new chats start with (Settings page); null: the server's default. */
    defaultModelId: text("default_model_id"),
    /**
     * Onboarding saved per user so it resumes on another device: the step reached and what was
     * typed so far (username, name, email, the guidelines flag). Null once finished or never begun.
     */
    onboarding: jsonb("onboarding").$type<{
      step: "welcome" | "guidelines" | "submit" | "done";
      username?: string;
      name?: string;
      email?: string;
      guidelines?: boolean;
    }>(),
    onboardedAt: timestamp("onboarded_at", { withTimezone: true }),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    /** A partner-mode account: the partner that created it (`/external/signup`, token login). */
    partnerId: text("partner_id"),
    /**
     * Set only on an account Hearth itself owns (`deleted-creator`: the owner of kept bots of
     * deleted creators), so finding it never depends on a username a member could have taken.
     */
    systemAccount: text("system_account"),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    uniqueIndex("users_username_key").on(t.username),
    uniqueIndex("users_system_account_key").on(t.systemAccount),
    // Usernames are stored in their one canonical form (lowercase ASCII, accounts-billing-admin §5),
    // so the unique index above also makes `ALICE` and `alice` collide, whichever path writes them.
    check("users_username_canonical", sql`${t.username} ~ '^[a-z0-9_-]{3,20}$'`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** Set on a session an administrator opened to view the site as this user (read-only, audited). */
    impersonatedBy: text("impersonated_by"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("sessions_token_key").on(t.token), index("sessions_user_id_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("accounts_user_id_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

export type UserRow = typeof users.$inferSelect;

/**
 * Counters behind sign-in throttling and the guest sign-in allowance (throttle.ts), in the
 * database so that every server process sees the same counts. One row per key, e.g.
 * `signin-account:<email>`, `signin-address:<ip>`, `guest-signin:<ip>`.
 */
export const authCounters = pgTable("auth_counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  /** How many times this key has been locked in the current window (the back-off doubles). */
  lockouts: integer("lockouts").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGN_UP_USERNAME_MIN,
  SIGN_UP_USERNAME_SHORT,
} from "@hearth/contract";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { anonymous } from "better-auth/plugins/anonymous";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Mailer } from "../../ports/mail.ts";
import { withUsernameConflicts } from "./auth-adapter.ts";
import { quietWhenIdle } from "./auth-storage.ts";
import { type FirstAdminLog, requesterFromHeaders, settleFirstAdmin } from "./first-admin.ts";
import { passwordRules } from "./password-hook.ts";
import {
  type CheckedFields,
  checkUserFields,
  type FieldSource,
  ProfileRuleError,
  USERNAME_TAKEN,
  type UserFields,
} from "./profile-rules.ts";
import { usernameTaken } from "./queries.ts";
import { accounts, sessions, users, verifications } from "./schema.ts";
import { registerSessionLookup } from "./session-lookup.ts";

/**
 * better-auth wiring: email + password, guests (anonymous plugin) and a hosted OIDC provider
 * (generic OAuth) when configured. Sessions live in httpOnly cookies under /api/auth.
 */
export function createAuth(
  config: Config,
  db: Db,
  mailer: Mailer | null = null,
  firstAdminLog?: FirstAdminLog,
) {
  const plugins = [];
  if (config.guests) {
    plugins.push(
      anonymous({
        emailDomainName: "guest.hearth.invalid",
        generateName: () => "Guest",
      }),
    );
  }
  if (config.oidc) {
    plugins.push(
      genericOAuth({
        config: [
          {
            providerId: config.oidc.providerId,
            discoveryUrl: `${config.oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
            clientId: config.oidc.clientId,
            clientSecret: config.oidc.clientSecret,
            scopes: ["openid", "profile", "email"],
            pkce: true,
          },
        ],
      }),
    );
  }

  const created = betterAuth({
    appName: config.brand.name,
    secret: config.secret,
    basePath: "/api/auth",
    // OAuth callbacks need the public address (PUBLIC_URL). Without it, requests from the host the
    // browser reached us by are same-origin (LAN IP, localhost) and accepted; other origins are refused.
    baseURL: config.publicUrl ?? `http://localhost:${config.port}`,
    // HEARTH_TRUSTED_ORIGINS (partner sites) are trusted here too, as by the rest of the API.
    trustedOrigins: (request) => [config.publicUrl ?? requestOrigin(request), ...config.trustedOrigins],
    database: withUsernameConflicts(
      drizzleAdapter(db, {
        provider: "pg",
        schema: { user: users, session: sessions, account: accounts, verification: verifications },
      }),
    ),
    // Profile fields change only through PATCH /api/users/me, under Hearth's rules (auth-routes.ts
    // answers these two with a JSON refusal before they get here).
    disabledPaths: ["/update-user", "/change-email"],
    emailAndPassword: {
      enabled: true,
      disableSignUp: !config.signup,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // A reset means the old password may be known to someone: end every session.
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      // Without a mailer, request-password-reset answers RESET_PASSWORD_DISABLED; administrators issue links.
      ...(mailer && {
        sendResetPassword: async ({ user, token }, request) => {
          const base = config.publicUrl ?? requestOrigin(request) ?? `http://localhost:${config.port}`;
          await mailer.send(resetMail(config.brand.name, user.email, resetPasswordUrl(base, token)));
        },
      }),
    },
    user: {
      additionalFields: {
        username: { type: "string", required: false, input: true },
        role: { type: "string", required: false, input: false, defaultValue: "free" },
        status: { type: "string", required: false, input: false, defaultValue: "inactive" },
        restriction: { type: "string", required: false, input: false, defaultValue: "none" },
        isAdmin: { type: "boolean", required: false, input: false, defaultValue: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // Set on a session an administrator opened to view the site as this user (impersonation.ts).
      additionalFields: { impersonatedBy: { type: "string", required: false, input: false } },
    },
    advanced: {
      database: { generateId: () => crypto.randomUUID() },
      cookiePrefix: "hearth",
      // better-auth skips its origin (CSRF) check under test runners by default; Hearth's tests must see the real thing.
      disableOriginCheck: false,
      useSecureCookies: config.publicUrl?.startsWith("https://") ?? false,
    },
    hooks: { before: passwordRules(config.brand.name) },
    databaseHooks: {
      user: {
        create: {
          before: async (user, ctx) => {
            const source = ctx?.path === "/sign-up/email" ? "typed" : "provided";
            const data = checkedFields(user, source, config.brand.name);
            // The original sign-up form asks for one character more than the profile (§5).
            if (ctx?.path === "/sign-up/email" && typeof data.username === "string") {
              if (data.username.length < SIGN_UP_USERNAME_MIN) {
                throw new APIError("BAD_REQUEST", { message: SIGN_UP_USERNAME_SHORT });
              }
            }
            // Friendly first; the unique index settles a race (auth-adapter.ts).
            if (typeof data.username === "string" && (await usernameTaken(db, data.username))) {
              throw new APIError("BAD_REQUEST", { message: USERNAME_TAKEN });
            }
            return { data: { ...user, username: null, ...data } };
          },
          // After the commit (better-auth queues it), so concurrent sign-ups see each other.
          // Only a sign-up from this machine or through PUBLIC_URL may claim (first-admin.ts).
          after: async (user, ctx) => {
            if (config.firstUserAdmin && !(user as { isAnonymous?: boolean | null }).isAnonymous) {
              const requester = requesterFromHeaders(ctx?.headers);
              await settleFirstAdmin(db, user, requester, config.publicUrl, firstAdminLog);
            }
          },
        },
        update: {
          // Any other better-auth write of these fields (a login provider's fresh profile, say)
          // meets the same rules; update-user itself is closed.
          before: async (user, ctx) => ({
            data: {
              ...user,
              ...checkedFields(user, ctx?.path === "/update-user" ? "typed" : "provided", config.brand.name),
            },
          }),
        },
      },
    },
    plugins,
    telemetry: { enabled: false },
  });
  // Its AsyncLocalStorage slows every promise while enabled: off between calls (auth-storage.ts).
  const auth = quietWhenIdle(created);
  // Requests resolve their session in one query (session-lookup.ts), better-auth's way otherwise.
  registerSessionLookup(auth, db);
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** How long a password reset link stays valid. */
export const RESET_LINK_SECONDS = 60 * 60;

/** The web page that sets the new password (routes/reset-password.tsx) with the one-time token. */
export function resetPasswordUrl(base: string, token: string): string {
  return `${base.replace(/\/$/, "")}/reset-password?token=${encodeURIComponent(token)}`;
}

function resetMail(brand: string, to: string, url: string) {
  return {
    to,
    subject: `Reset your ${brand} password`,
    text: `Someone asked to reset the password of your ${brand} account.\n\nChoose a new password here (the link works once, for one hour):\n${url}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
  };
}

/** The profile rules (profile-rules.ts) in better-auth's terms: a broken rule is its 400. */
function checkedFields(user: UserFields, source: FieldSource, brand: string): CheckedFields {
  try {
    return checkUserFields(
      { username: user.username, name: user.name, image: user.image, email: user.email },
      source,
      brand,
    );
  } catch (error) {
    if (error instanceof ProfileRuleError) throw new APIError("BAD_REQUEST", { message: error.message });
    throw error;
  }
}

function requestOrigin(request: Request | undefined): string | null {
  const host = request?.headers.get("host");
  if (!request || !host) return null;
  return `${new URL(request.url).protocol}//${host}`;
}

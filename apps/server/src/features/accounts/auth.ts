import { username as usernameSchema } from "@hearth/contract";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { anonymous } from "better-auth/plugins/anonymous";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { claimFirstAdmin } from "./first-admin.ts";
import { usernameTaken } from "./queries.ts";
import { accounts, sessions, users, verifications } from "./schema.ts";

/**
 * better-auth wiring: email + password, guests (anonymous plugin) and a hosted OIDC provider
 * (generic OAuth) when configured. Sessions live in httpOnly cookies under /api/auth.
 */
export function createAuth(config: Config, db: Db) {
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

  return betterAuth({
    appName: config.brand.name,
    secret: config.secret,
    basePath: "/api/auth",
    // OAuth callbacks need the public address (PUBLIC_URL). Without it, requests from the host the
    // browser reached us by are same-origin (LAN IP, localhost) and accepted; other origins are refused.
    baseURL: config.publicUrl ?? `http://localhost:${config.port}`,
    trustedOrigins: (request) => (config.publicUrl ? [config.publicUrl] : [requestOrigin(request)]),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: !config.signup,
      minPasswordLength: 8,
      maxPasswordLength: 128,
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
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    advanced: {
      database: { generateId: () => crypto.randomUUID() },
      cookiePrefix: "hearth",
      // better-auth skips its origin (CSRF) check under test runners by default; Hearth's tests must see the real thing.
      disableOriginCheck: false,
      useSecureCookies: config.publicUrl?.startsWith("https://") ?? false,
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user, ctx) => {
            const name = checkName(user.name, ctx?.path === "/sign-up/email");
            const raw = (user as { username?: unknown }).username;
            if (raw === undefined || raw === null || raw === "")
              return { data: { ...user, name, username: null } };
            const parsed = usernameSchema.safeParse(raw);
            if (!parsed.success) {
              throw new APIError("BAD_REQUEST", {
                message: parsed.error.issues[0]?.message ?? "Invalid username",
              });
            }
            if (await usernameTaken(db, parsed.data)) {
              throw new APIError("BAD_REQUEST", { message: "Username is not available" });
            }
            return { data: { ...user, name, username: parsed.data } };
          },
          // After the commit (better-auth queues it), so concurrent sign-ups see each other.
          after: async (user) => {
            if (config.firstUserAdmin && !(user as { isAnonymous?: boolean | null }).isAnonymous) {
              await claimFirstAdmin(db, user.id);
            }
          },
        },
      },
    },
    plugins,
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Display names (accounts-billing-admin §5): 3 to 20 characters. A person signing up is told;
 * a name from the login provider is shortened instead, so OIDC sign-in never fails on it.
 */
function checkName(raw: string, strict: boolean): string {
  const name = raw.trim();
  if (!strict) return name.slice(0, 20) || "Member";
  if (!name) throw new APIError("BAD_REQUEST", { message: "Name can't be empty" });
  if (name.length < 3)
    throw new APIError("BAD_REQUEST", { message: "Name should be of atleast 3 characters" });
  if (name.length > 20)
    throw new APIError("BAD_REQUEST", { message: "Name should be less then 20 characters" });
  return name;
}

function requestOrigin(request: Request | undefined): string | null {
  const host = request?.headers.get("host");
  if (!request || !host) return null;
  return `${new URL(request.url).protocol}//${host}`;
}

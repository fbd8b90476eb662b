import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { type PasswordContext, passwordProblem } from "./passwords.ts";

/**
 * Every better-auth path that sets a password meets the same rules (passwords.ts), judged with
 * what is known of the account: the typed fields at sign-up, the session's user at a change, the
 * link's user at a reset. Changing it signs out the account's other sessions whatever the client
 * asked (someone who knew the old password must not stay signed in).
 */
export function passwordRules(brand: string) {
  return createAuthMiddleware(async (ctx) => {
    const body = ctx.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || Array.isArray(body)) return;
    const field =
      ctx.path === "/sign-up/email" ? "password" : NEW_PASSWORD_PATHS.has(ctx.path) ? "newPassword" : null;
    const password = field ? body[field] : undefined;
    if (typeof password === "string") {
      const context = await accountContext(ctx, body);
      const problem = await passwordProblem(password, { ...context, brand });
      if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: PASSWORD_NOT_ALLOWED });
    }
    if (ctx.path === "/change-password") {
      return { context: { body: { ...body, revokeOtherSessions: true } } };
    }
  });
}

/** The code of better-auth's refusal of a password that breaks the rules. */
export const PASSWORD_NOT_ALLOWED = "PASSWORD_NOT_ALLOWED";

const NEW_PASSWORD_PATHS = new Set(["/change-password", "/reset-password"]);

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whose password it is: the typed fields, the signed-in user, or the unexpired reset link's user. */
async function accountContext(ctx: HookContext, body: Record<string, unknown>): Promise<PasswordContext> {
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  if (ctx.path === "/sign-up/email") {
    return { email: text(body.email), name: text(body.name), username: text(body.username) };
  }
  let user: Record<string, unknown> | null | undefined;
  if (ctx.path === "/change-password") {
    user = (await getSessionFromCtx(ctx).catch(() => null))?.user;
  } else {
    // Read, not consumed: reset-password itself then checks and spends the token.
    const token = text(body.token) ?? text(ctx.query?.token);
    const link = token
      ? await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`)
      : null;
    if (link && link.expiresAt > new Date())
      user = await ctx.context.internalAdapter.findUserById(link.value);
  }
  return { email: text(user?.email), name: text(user?.name), username: text(user?.username) };
}

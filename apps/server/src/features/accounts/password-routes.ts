import { accountEndpoints } from "@hearth/contract";
import { APIError } from "better-auth/api";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { PasswordAttempts } from "./password-attempts.ts";
import { PASSWORD_NOT_ALLOWED } from "./password-hook.ts";
import { isRestricted } from "./policy.ts";
import { requireViewer, toHeaders } from "./viewer.ts";

export const WRONG_PASSWORD = "The current password is not correct.";
export const NO_PASSWORD =
  "This account signs in through another provider and has no password to change here.";

/**
 * Password change from the profile: better-auth's change-password underneath (its hook applies
 * passwords.ts and always signs out the other sessions); this session gets a fresh cookie.
 */
export async function passwordRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Db }) {
  // A wrong current password counts with the account's wrong sign-ins (password-attempts.ts).
  const attempts = new PasswordAttempts(db, { signInsPerMinute: 0 });
  route(app, accountEndpoints.changePassword, async ({ req, reply, body }) => {
    const viewer = await requireViewer(auth, req);
    if (viewer.isGuest) throw new HttpError(403, "forbidden", "Guests have no password to change.");
    if (isRestricted(viewer)) {
      throw new HttpError(
        403,
        "restricted",
        "Your account is restricted, so its password cannot be changed.",
      );
    }
    try {
      const { headers } = await attempts.run(
        { kind: "password", email: viewer.email?.toLowerCase() ?? null, ip: req.ip },
        () =>
          auth.api.changePassword({
            body: {
              currentPassword: body.current_password,
              newPassword: body.new_password,
              revokeOtherSessions: true,
            },
            headers: toHeaders(req.headers),
            returnHeaders: true,
          }),
        () => "right",
        (error) => (apiErrorCode(error) === "INVALID_PASSWORD" ? "wrong" : "other"),
      );
      const cookies = headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", cookies);
    } catch (error) {
      if (error instanceof APIError) {
        const code = apiErrorCode(error);
        if (code === "INVALID_PASSWORD") throw invalidField("current_password", WRONG_PASSWORD);
        // The rules are better-auth's before-hook (password-hook.ts), run before the current
        // password is checked: its sentence belongs to the new password's field.
        if (code === PASSWORD_NOT_ALLOWED) throw invalidField("new_password", error.message);
        if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") throw new HttpError(400, "invalidRequest", NO_PASSWORD);
      }
      throw error;
    }
    return undefined;
  });
}

const apiErrorCode = (error: unknown) =>
  error instanceof APIError ? (error.body as { code?: string } | undefined)?.code : undefined;

const invalidField = (path: string, message: string) =>
  new HttpError(400, "invalidRequest", message, [{ path, message }]);

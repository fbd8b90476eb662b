import { randomBytes } from "node:crypto";
import { accountLifecycleEndpoints, type Me, needsEmail } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { forbidden, HttpError, notFound, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type Auth, RESET_LINK_SECONDS, resetPasswordUrl } from "./auth.ts";
import { userRow } from "./onboarding.ts";
import { canManageUsers, isRestricted } from "./policy.ts";
import { EMAIL_TAKEN, violates } from "./profile-rules.ts";
import { updateProfile } from "./queries.ts";
import { requireViewer, toMe, viewerFromUser } from "./viewer.ts";

/**
 * The update-email page's call (accounts with no usable address: a login provider's private
 * relay) and the administrators' one-time password reset links. Members request a link by mail
 * through better-auth's own /api/auth/request-password-reset when SMTP_URL is set (auth.ts).
 */
export async function emailRoutes(
  app: FastifyInstance,
  { config, db, auth }: { config: Config; db: Db; auth: Auth },
) {
  route(app, accountLifecycleEndpoints.updateEmail, async ({ req, body }): Promise<Me> => {
    const viewer = await requireViewer(auth, req);
    if (isRestricted(viewer)) {
      throw new HttpError(403, "restricted", "Your account is restricted. Please contact the moderators.");
    }
    if (viewer.isGuest) throw forbidden("Guests have no e-mail. Sign up for a free account first.");
    // Everyone else changes it on the profile page, where the change is confirmed.
    if (!needsEmail(viewer.email)) {
      throw new HttpError(409, "conflict", "Your account already has an e-mail; change it in your profile.");
    }
    let row: Awaited<ReturnType<typeof updateProfile>>;
    try {
      row = await updateProfile(db, viewer.id, { email: body.email });
    } catch (error) {
      if (violates(error, "23505", "users_email_key")) {
        throw new HttpError(400, "invalidRequest", EMAIL_TAKEN, [{ path: "email", message: EMAIL_TAKEN }]);
      }
      throw error;
    }
    if (!row) throw unauthorized();
    return toMe(viewerFromUser(row));
  });

  route(app, accountLifecycleEndpoints.passwordResetLink, async ({ req, params: { id } }) => {
    canManageUsers(await requireViewer(auth, req));
    const target = await userRow(db, id);
    if (!target) throw notFound("No such user.");
    if (target.isAnonymous) throw new HttpError(409, "conflict", "Guests have no password to reset.");
    // The same verification row better-auth's request-password-reset writes, so its
    // /api/auth/reset-password consumes it once (and ends the account's sessions).
    const token = randomBytes(24).toString("base64url");
    const expiresAt = new Date(Date.now() + RESET_LINK_SECONDS * 1000);
    const context = await auth.$context;
    await context.internalAdapter.createVerificationValue({
      identifier: `reset-password:${token}`,
      value: target.id,
      expiresAt,
    });
    const base = config.publicUrl ?? `${req.protocol}://${req.headers.host ?? `localhost:${config.port}`}`;
    return { url: resetPasswordUrl(base, token), expires_at: expiresAt.toISOString() };
  });
}

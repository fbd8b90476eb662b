import { accountLifecycleEndpoints, type Me } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { forbidden, HttpError, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { completeOnboarding, saveOnboarding, toOnboardingState, userRow } from "./onboarding.ts";
import { isRestricted } from "./policy.ts";
import { refuseReservedUsername, USERNAME_TAKEN, violates } from "./profile-rules.ts";
import { requireViewer, toMe, type Viewer, viewerFromUser } from "./viewer.ts";

/** GET/PUT the saved onboarding state and its final submit. */
export async function onboardingRoutes(
  app: FastifyInstance,
  { config, db, auth }: { config: Config; db: Db; auth: Auth },
) {
  route(app, accountLifecycleEndpoints.onboarding, async ({ req }) => {
    const viewer = await requireViewer(auth, req);
    const row = await userRow(db, viewer.id);
    if (!row) throw unauthorized();
    return toOnboardingState(row);
  });

  route(app, accountLifecycleEndpoints.saveOnboarding, async ({ req, body }) => {
    const viewer = await requireViewer(auth, req);
    canOnboard(viewer);
    const row = await userRow(db, viewer.id);
    if (!row) throw unauthorized();
    if (row.username) throw alreadyDone();
    const saved = await saveOnboarding(db, row, body);
    if (!saved) throw unauthorized();
    return toOnboardingState(saved);
  });

  route(app, accountLifecycleEndpoints.completeOnboarding, async ({ req, body }): Promise<Me> => {
    const viewer = await requireViewer(auth, req);
    canOnboard(viewer);
    if (viewer.username) throw alreadyDone();
    refuseReservedUsername(body.username, config.brand.name);
    let row: Awaited<ReturnType<typeof completeOnboarding>>;
    try {
      row = await completeOnboarding(db, viewer.id, body);
    } catch (error) {
      if (violates(error, "23505", "users_username_key")) {
        throw new HttpError(400, "invalidRequest", USERNAME_TAKEN, [
          { path: "username", message: USERNAME_TAKEN },
        ]);
      }
      throw error;
    }
    if (!row) throw alreadyDone();
    return toMe(viewerFromUser(row));
  });
}

/** Guests sign up first; a restricted account is refused as everywhere else. */
function canOnboard(viewer: Viewer): void {
  if (isRestricted(viewer)) {
    throw new HttpError(403, "restricted", "Your account is restricted. Please contact the moderators.");
  }
  if (viewer.isGuest) throw forbidden("Guests have no profile. Sign up for a free account first.");
}

const alreadyDone = () =>
  new HttpError(409, "conflict", "Onboarding is already complete: this account has a username.");

import {
  accountEndpoints,
  type Me,
  type ProfileSettings,
  type ProfileUpdate,
  username,
} from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { forbidden, HttpError, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { deleteAvatarFiles } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "./auth.ts";
import { defaultModelRoutes, type ModelChoices } from "./default-model-routes.ts";
import { describeLlmKey } from "./llm-key.ts";
import { userRow as findUserRow } from "./onboarding.ts";
import { passwordRoutes } from "./password-routes.ts";
import { isRestricted, refuseRestrictedChanges } from "./policy.ts";
import {
  EMAIL_TAKEN,
  refuseReservedUsername,
  settingsChange,
  USERNAME_TAKEN,
  violates,
} from "./profile-rules.ts";
import { updateProfile, usernameTaken } from "./queries.ts";
import { isReservedUsername } from "./reserved-names.ts";
import type { UserRow } from "./schema.ts";
import { sessionsRoutes } from "./sessions-routes.ts";
import { getViewer, requireViewer, toMe, type Viewer, viewerFromUser } from "./viewer.ts";

/**
 * The one way to change a profile (better-auth's update-user and change-email are closed): the
 * body is parsed by the contract's schemas, which are the rules the sign-up hooks use too.
 */
export async function profileRoutes(
  app: FastifyInstance,
  {
    config,
    db,
    auth,
    models,
    storage,
  }: { config: Config; db: Db; auth: Auth; models: ModelChoices; storage: FileStorage },
) {
  refuseRestrictedChanges(app, auth);
  await app.register(sessionsRoutes, { db, auth });
  await app.register(passwordRoutes, { auth, db });
  await app.register(defaultModelRoutes, { db, auth, models });

  const userRow = async (id: string): Promise<UserRow> => {
    const row = await findUserRow(db, id);
    if (!row) throw unauthorized();
    return row;
  };

  route(app, accountEndpoints.profileSettings, async ({ req }): Promise<ProfileSettings> => {
    const viewer = await requireViewer(auth, req);
    const row = await userRow(viewer.id);
    return {
      highlights: row.highlights,
      highlights_max: config.profile.highlightsMax,
      show_nsfw: row.showNsfw,
      adult_confirmed: row.adultConfirmedAt !== null,
      openai_key: describeLlmKey(config.secret, row.llmApiKeyEncrypted),
      openai_mode: row.llmMode,
      layout: config.profile.layout,
    };
  });

  route(app, accountEndpoints.updateProfile, async ({ req, body }): Promise<Me> => {
    const viewer = await requireViewer(auth, req);
    canChangeProfile(viewer);
    const change = onlyChanged(viewer, body);
    // Only a new name: a member who held one before it was reserved may keep it.
    refuseReservedUsername(change.username, config.brand.name);
    // Highlights, NSFW and the model key are checked against the stored row (the 18+ question is asked once).
    const before = await userRow(viewer.id);
    const settings = settingsChange(before, body, config);
    if (Object.keys(change).length === 0 && Object.keys(settings).length === 0) return toMe(viewer);
    let row: Awaited<ReturnType<typeof updateProfile>>;
    try {
      row = await updateProfile(db, viewer.id, change, settings);
    } catch (error) {
      // The unique indexes decide, atomically: a name taken a moment ago is refused here.
      if (violates(error, "23505", "users_username_key")) throw invalidField("username", USERNAME_TAKEN);
      if (violates(error, "23505", "users_email_key")) throw invalidField("email", EMAIL_TAKEN);
      throw error;
    }
    if (!row) throw unauthorized();
    // An address given in place of the uploaded avatar: its files are no longer anyone's.
    if (change.avatar_url !== undefined && before.avatarKey)
      await deleteAvatarFiles(storage, before.avatarKey);
    return toMe(viewerFromUser(row));
  });

  route(app, accountEndpoints.checkUsername, async ({ req, query }) => {
    const parsed = username.safeParse(query.username);
    if (!parsed.success) return { isAvailable: false };
    // One's own name counts as available: keeping it is always allowed.
    const viewer = await getViewer(auth, req);
    if (viewer?.username === parsed.data) return { isAvailable: true };
    if (isReservedUsername(parsed.data, config.brand.name)) return { isAvailable: false };
    return { isAvailable: !(await usernameTaken(db, parsed.data)) };
  });
}

/** Guests have no profile to change; a restricted account may not rename itself. */
function canChangeProfile(viewer: Viewer): void {
  if (isRestricted(viewer)) {
    throw new HttpError(403, "restricted", "Your account is restricted, so its profile cannot be changed.");
  }
  if (viewer.isGuest) {
    throw forbidden(
      "Guests can't change a profile. Sign up for a free account to choose your name and username.",
    );
  }
}

/** Leaves out fields sent with their current value (re-saving one's own e-mail must not unverify it). */
function onlyChanged(viewer: Viewer, body: ProfileUpdate): ProfileUpdate {
  const change: ProfileUpdate = {};
  if (body.username !== undefined && body.username !== viewer.username) change.username = body.username;
  if (body.name !== undefined && body.name !== viewer.name) change.name = body.name;
  if (body.avatar_url !== undefined && body.avatar_url !== viewer.image) change.avatar_url = body.avatar_url;
  if (body.email !== undefined && body.email !== viewer.email) change.email = body.email;
  return change;
}

const invalidField = (path: string, message: string) =>
  new HttpError(400, "invalidRequest", message, [{ path, message }]);

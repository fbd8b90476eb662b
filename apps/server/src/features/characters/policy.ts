import type { Visibility } from "@hearth/contract";
import { forbidden, HttpError, unauthorized } from "../../http/errors.ts";
import {
  assertNotRestricted,
  assertPermission,
  isAdministrator,
  isRestricted,
  type Viewer,
} from "../accounts/index.ts";
import { awaitsReview } from "./moderation.ts";
import type { CharacterRow } from "./schema.ts";

/**
 * Who may do what with a character: the one place these rules live (chat-and-characters §2,
 * §5, §6). Routes call these before touching anything; other features use `canChat`.
 *
 * One rule for bots a viewer may not see: a private, permanently private or deleted bot, and an
 * id that does not exist, all answer 404 `invalidAccess` with the spec's message, so a private
 * bot's existence is not revealed. A bot the viewer can see but not change answers 403.
 */

/** Signed-out requests have no viewer; guests do (with guest permissions). */
export type MaybeViewer = Viewer | null;

export type PolicyCharacter = Pick<
  CharacterRow,
  "creatorUserId" | "visibility" | "deletedAt" | "definitionVisible" | "moderationStatus"
>;

export const INVALID_ACCESS_MESSAGE =
  "You are not allowed to chat with this character. It's either private or deleted.";
export const EDITOR_FORBIDDEN_MESSAGE = "You are not allowed to access this page";
export const IN_REVIEW_MESSAGE =
  "This chatbot is in the review queue. You can edit it again once the moderators have reviewed it.";

export const invalidAccess = () => new HttpError(404, "invalidAccess", INVALID_ACCESS_MESSAGE);

/** Admin rights come from permissions, so a restricted admin has none. */
export const isAdmin = (viewer: MaybeViewer): boolean => isAdministrator(viewer);

export const isCreator = (viewer: MaybeViewer, c: Pick<CharacterRow, "creatorUserId">): boolean =>
  viewer !== null && viewer.id === c.creatorUserId;

/** Public and hidden (unlisted, reachable by link) bots are visible to all; private ones to their creator and admins. */
export function canView(viewer: MaybeViewer, c: PolicyCharacter): boolean {
  if (c.deletedAt) return false;
  if (c.visibility === "public" || c.visibility === "hidden") return true;
  return isCreator(viewer, c) || isAdmin(viewer);
}

/** Whether the viewer may open a chat with this bot (the chat feature adds its own checks, e.g. blocks). */
export function canChat(viewer: MaybeViewer, c: PolicyCharacter): boolean {
  return !(viewer && isRestricted(viewer)) && canView(viewer, c);
}

/**
 * Chatting (starting a chat, listing one's chats with a bot): a restricted viewer hears so first,
 * whatever the id (403 `restricted`, not the 404 that says "private or deleted"); then a bot that
 * is missing or unseen is the usual 404 `invalidAccess`.
 */
export function assertCanChat<C extends PolicyCharacter>(viewer: MaybeViewer, c: C | null): asserts c is C {
  assertNotRestricted(viewer);
  if (!c || !canChat(viewer, c)) throw invalidAccess();
}

export function assertCanView(viewer: MaybeViewer, c: PolicyCharacter): void {
  assertNotRestricted(viewer);
  if (!canView(viewer, c)) throw invalidAccess();
}

/** Persona, scenario, dialogue (and the prompts and lorebook) are the creator's unless they share them. */
export function canSeeDefinition(viewer: MaybeViewer, c: PolicyCharacter): boolean {
  return c.definitionVisible || isCreator(viewer, c) || isAdmin(viewer);
}

export function assertCanCreate(viewer: MaybeViewer): Viewer {
  if (!viewer) throw unauthorized();
  // Guests and limited accounts lack create_character; restricted ones are refused as such.
  assertPermission(viewer, "create_character");
  return viewer;
}

/** The edit view (GET ?switch=T1): the creator's, or an admin's. */
export function assertCanOpenEditor(viewer: MaybeViewer, c: PolicyCharacter): Viewer {
  assertCanView(viewer, c);
  if (!viewer) throw unauthorized();
  if (!isCreator(viewer, c) && !isAdmin(viewer)) throw forbidden(EDITOR_FORBIDDEN_MESSAGE);
  return viewer;
}

/**
 * Saving changes (fields, avatar). A creator also needs create_character (a limited account keeps
 * reading its bots but cannot change them), and cannot edit while the bot waits for review
 * (pending, or rereview_required after a fix). Admins edit anything at any time (audited).
 */
export function assertCanEdit(viewer: MaybeViewer, c: PolicyCharacter): Viewer {
  const v = assertCanOpenEditor(viewer, c);
  if (isAdmin(v)) return v;
  assertPermission(v, "create_character");
  if (awaitsReview(c.moderationStatus)) throw new HttpError(409, "conflict", IN_REVIEW_MESSAGE);
  return v;
}

/**
 * Changing the avatar is an edit, with one exception: the first avatar of a bot waiting for
 * review may still be added, since creating a bot and uploading its picture are two calls.
 */
export function assertCanChangeAvatar(
  viewer: MaybeViewer,
  c: PolicyCharacter & Pick<CharacterRow, "avatarKey">,
  adding: boolean,
): Viewer {
  if (adding && c.avatarKey === null && c.moderationStatus === "pending") {
    const v = assertCanOpenEditor(viewer, c);
    if (!isAdmin(v)) assertPermission(v, "create_character");
    return v;
  }
  return assertCanEdit(viewer, c);
}

/**
 * permanently_private is a moderator's decision ("make private" in the review table): only admins
 * set or lift it.
 */
export function assertCanSetVisibility(viewer: Viewer, current: Visibility | null, next: Visibility): void {
  if (isAdmin(viewer) || next === current) return;
  if (current === "permanently_private") {
    throw forbidden("The moderators made this chatbot permanently private; its visibility cannot change.");
  }
  if (next === "permanently_private") {
    throw forbidden("Only moderators can make a chatbot permanently private. Choose private instead.");
  }
}

/** Deleting needs the creator and delete_character (without it the client shows its contact-us modal). */
export function assertCanDelete(viewer: MaybeViewer, c: PolicyCharacter): Viewer {
  assertCanView(viewer, c);
  if (!viewer) throw unauthorized();
  if (isAdmin(viewer)) return viewer;
  if (!isCreator(viewer, c)) throw forbidden("Only the creator can delete this chatbot.");
  assertPermission(viewer, "delete_character");
  return viewer;
}

/** A card file carries the whole definition, so export follows the definition's visibility. */
export function assertCanExport(viewer: MaybeViewer, c: PolicyCharacter): void {
  assertCanView(viewer, c);
  if (!canSeeDefinition(viewer, c)) {
    throw forbidden("The creator keeps this chatbot's definition private, so it cannot be exported.");
  }
}

/** Favorites belong to members: signed in, not a guest, not restricted. */
export function assertCanKeepFavorites(viewer: MaybeViewer): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest) throw forbidden("Sign up to keep your favorite chatbots.");
  return viewer;
}

/**
 * Whose favorites list keeps private bots others made: an administrator's (they may see every
 * bot); a member's list leaves out bots that turned private, except their own.
 */
export const favoritesSeeEveryBot = (viewer: Viewer): boolean => isAdmin(viewer);

/** The creator cannot favorite their own bot (chat-and-characters §6). */
export function assertCanFavorite(viewer: MaybeViewer, c: PolicyCharacter): Viewer {
  const v = assertCanKeepFavorites(viewer);
  assertCanView(v, c);
  if (isCreator(v, c)) throw new HttpError(400, "invalidRequest", "You cannot favorite your own chatbot.");
  return v;
}

/** My Chatbots: members with view_my_chat_bots (not guests, not limited accounts). */
export function assertCanListOwn(viewer: MaybeViewer): Viewer {
  if (!viewer) throw unauthorized();
  assertPermission(viewer, "view_my_chat_bots");
  return viewer;
}

/** Moderating (the review table, approve or send back): administrators. */
export function assertCanModerate(viewer: MaybeViewer): Viewer {
  if (!viewer) throw unauthorized();
  assertPermission(viewer, "admin");
  return viewer;
}

import { forbidden, HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, isAdministrator, isRestricted, type Viewer } from "../accounts/index.ts";
import { assertCanEdit, type CharacterRow, canView, invalidAccess } from "../characters/index.ts";

/**
 * Who may rate bots and suggest tags (chat-and-characters §6: "Rating the chatbot appears only
 * for signed-in users on public bots"), and who sees and decides tag suggestions (the creator,
 * or an admin). A bot the viewer cannot see answers 404 invalidAccess, as everywhere.
 */

type Bot = Pick<
  CharacterRow,
  "creatorUserId" | "visibility" | "deletedAt" | "definitionVisible" | "moderationStatus"
>;

/** Signed in as a member: not signed out (401), not restricted, not a guest. */
function assertMember(viewer: Viewer | null, guestMessage: string): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest) throw forbidden(guestMessage);
  return viewer;
}

/** A bot's rating figures are read by whoever may see the bot (a private one: its creator, an admin). */
export function assertCanSeeRatings<B extends Bot>(viewer: Viewer | null, bot: B | null): asserts bot is B {
  if (!bot || !canView(viewer, bot)) throw invalidAccess();
}

/** Whether the header offers the rate dialog to this viewer. */
export function mayRate(viewer: Viewer | null, bot: Bot): boolean {
  return Boolean(
    viewer &&
      !viewer.isGuest &&
      !isRestricted(viewer) &&
      bot.visibility === "public" &&
      !bot.deletedAt &&
      viewer.id !== bot.creatorUserId,
  );
}

/**
 * Members rate public bots. A creator cannot rate their own bot: ratings feed its like percent
 * and the creators leaderboard, which a creator's own votes would skew.
 */
export function assertCanRate(viewer: Viewer | null, bot: Bot | null): Viewer {
  const v = assertMember(viewer, "Sign up to rate chatbots.");
  if (!bot || !canView(v, bot)) throw invalidAccess();
  if (bot.visibility !== "public") throw forbidden("Only public chatbots can be rated.");
  if (v.id === bot.creatorUserId) throw forbidden("You cannot rate your own chatbot.");
  return v;
}

/**
 * Members suggest tags for bots others can reach (public or unlisted); limited accounts, which
 * cannot create or report, cannot either. The creator edits their own tags in the editor.
 */
export function assertCanSuggestTags(viewer: Viewer | null, bot: Bot | null): Viewer {
  const v = assertMember(viewer, "Sign up to suggest tags.");
  if (v.permissions.includes("limited_access")) {
    throw forbidden("Your account has limited access and cannot do this.");
  }
  if (!bot || !canView(v, bot) || (bot.visibility !== "public" && bot.visibility !== "hidden")) {
    throw invalidAccess();
  }
  if (v.id === bot.creatorUserId) {
    throw new HttpError(400, "invalidRequest", "Change your own chatbot's tags in the editor.");
  }
  return v;
}

/** The pending suggestions are the creator's to read (and an admin's). */
export function assertCanReviewSuggestions(viewer: Viewer | null, bot: Bot | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (!bot || !canView(viewer, bot)) throw invalidAccess();
  if (viewer.id !== bot.creatorUserId && !isAdministrator(viewer)) {
    throw forbidden("Only the creator sees this chatbot's tag suggestions.");
  }
  return viewer;
}

/** Accepting changes the bot's tags: an edit, under the editor's rules (none while in review). */
export function assertCanAcceptSuggestion(viewer: Viewer | null, bot: Bot): Viewer {
  assertCanReviewSuggestions(viewer, bot);
  return assertCanEdit(viewer, bot);
}

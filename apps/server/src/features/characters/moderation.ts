import type { ModerationStatus, Visibility } from "@hearth/contract";

/**
 * Review rules (chat-and-characters §4). Review happens after the fact: a pending bot stays
 * visible but its creator cannot edit it until a moderator has looked at it.
 */

/** A new public bot waits for review (when HEARTH_REVIEW_PUBLIC_BOTS is on); others need none. */
export function statusOnCreate(visibility: Visibility, reviewPublicBots: boolean): ModerationStatus {
  return visibility === "public" && reviewPublicBots ? "pending" : "approved";
}

/**
 * After a creator's edit: a bot that is public afterwards is reviewed again; an unlisted bot a
 * moderator had sent back (fix_required, rereview_required) goes back to them as resubmitted;
 * a private bot is seen by nobody else, so there is nothing to review.
 */
export function statusOnCreatorEdit(
  current: ModerationStatus,
  visibility: Visibility,
  reviewPublicBots: boolean,
): ModerationStatus {
  const review: ModerationStatus = reviewPublicBots ? "pending" : "approved";
  if (visibility === "public") return review;
  if (visibility === "hidden") {
    return current === "fix_required" || current === "rereview_required" ? review : current;
  }
  return "approved";
}

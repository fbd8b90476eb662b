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
 * After a creator's edit: a bot that is public afterwards is reviewed again (pending, when reviews
 * are on); a bot a moderator sent back (fix_required) and its creator fixed goes back to them as
 * rereview_required, public or unlisted, reviews on or off, since a moderator asked for the fix;
 * a private bot is seen by nobody else, so there is nothing to review.
 */
export function statusOnCreatorEdit(
  current: ModerationStatus,
  visibility: Visibility,
  reviewPublicBots: boolean,
): ModerationStatus {
  const resubmitted = current === "fix_required" || current === "rereview_required";
  const review: ModerationStatus = resubmitted
    ? "rereview_required"
    : reviewPublicBots
      ? "pending"
      : "approved";
  if (visibility === "public") return review;
  if (visibility === "hidden") return resubmitted ? review : current;
  return "approved";
}

/** The states in which a bot waits for a moderator: its creator cannot edit it meanwhile. */
export const awaitsReview = (status: ModerationStatus): boolean =>
  status === "pending" || status === "rereview_required";

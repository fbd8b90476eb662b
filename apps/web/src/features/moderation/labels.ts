import type { ActionTaken, AdminReview, ReviewKind } from "@hearth/contract";
import type { BadgeTone } from "../../ui/badge.tsx";

/** Names the review table shows for the contract's values. */
export const kindLabel: Record<ReviewKind, string> = {
  new_bot: "New bot",
  edited_bot: "Edited bot",
  user_report: "Report",
  message_flag: "Message flag",
};

export const kindTone: Record<ReviewKind, BadgeTone> = {
  new_bot: "info",
  edited_bot: "info",
  user_report: "warning",
  message_flag: "warning",
};

export const actionLabel: Record<ActionTaken, string> = {
  deleted: "Deleted",
  made_private: "Made private",
  set_nsfw: "Marked NSFW",
  reset_underage: "Underage reset",
  approved: "Approved",
  fix_required: "Sent back",
  none: "Closed",
};

/** Reasons a moderator picks when sending a bot back (the creator reads them in the editor banner). */
export const rejectReasons = [
  "Describes or implies minors",
  "Sexual content without the NSFW mark",
  "Impersonates a real person",
  "Hateful or harassing content",
  "Spam, advertising or a scam",
  "Empty or broken definition",
] as const;

export const isBotReview = (review: AdminReview) => review.kind === "new_bot" || review.kind === "edited_bot";

export const reviewDate = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

import { z } from "zod";
import { moderationStatus, visibility } from "./characters.ts";
import { queryInt32 } from "./integers.ts";

/**
 * Moderation (accounts-billing-admin §2.2, §3, §5, §7; chat-and-characters §3, §4): the admin
 * review table, the audit log, members' reports of a bot and flags of a message.
 */

/** What a review is about: a bot's own content (new or edited public bot), a member's report, a flagged message. */
export const reviewKind = z.enum(["new_bot", "edited_bot", "user_report", "message_flag"]);
export type ReviewKind = z.infer<typeof reviewKind>;

export const reviewStatus = z.enum(["open", "closed"]);
export type ReviewStatus = z.infer<typeof reviewStatus>;

/** What closed a review: the spec's five (§7), and a bot review's outcome (approved, fix_required). */
export const actionTaken = z.enum([
  "deleted",
  "made_private",
  "set_nsfw",
  "reset_underage",
  "approved",
  "fix_required",
  "none",
]);
export type ActionTaken = z.infer<typeof actionTaken>;

/** The choices of the Report-a-chatbot form (the spec names the fields, not their options). */
export const reportIssueTypes = [
  "Sexual content involving minors",
  "Illegal or harmful content",
  "Hate or harassment",
  "Impersonates a real person",
  "Spam or scam",
  "Should be marked NSFW",
  "Broken or low quality",
  "Other",
] as const;
export const reportResolutions = [
  "Remove the chatbot",
  "Make it private",
  "Mark it NSFW",
  "Ask the creator to fix it",
  "Other",
] as const;
/** The options of the message report flow (chat-and-characters §4 "select option"). */
export const flagLabels = [
  "Harmful or dangerous",
  "Sexual content involving minors",
  "Hateful or harassing",
  "Out of character",
  "Low quality or broken",
  "Other",
] as const;

/** §5 and §9: the limits and messages of the report form. */
export const REPORT_ID_MAX = 50;
export const REPORT_DETAILS_MAX = 250;
export const FLAG_COMMENT_MAX = 500;
export const reportMessages = {
  id: "You must provide an id",
  issue: "Choose what is wrong",
  details: "Details are required",
  resolution: "Choose what you expect us to do",
  incomplete: "Fill all fields to submit.",
  /** The promise shown beside the form (§2.2, §9). */
  promise: "Our moderators look at every report within 7 days.",
  success: "Thank you. Your report was sent to the moderators.",
} as const;

/** POST /api/reportCharacter: the spec's payload (§3 Report, §5 rules). */
export const reportCharacterRequest = z.object({
  character_id: z
    .string()
    .trim()
    .min(1, reportMessages.id)
    .max(REPORT_ID_MAX, `${reportMessages.id} (at most ${REPORT_ID_MAX} characters)`),
  userIssueType: z.enum(reportIssueTypes, { error: reportMessages.issue }),
  userReportDetails: z
    .string()
    .trim()
    .min(1, reportMessages.details)
    .max(REPORT_DETAILS_MAX, `At most ${REPORT_DETAILS_MAX} characters`),
  userExpectedResolution: z.enum(reportResolutions, { error: reportMessages.resolution }),
});
export type ReportCharacterRequest = z.input<typeof reportCharacterRequest>;

/** POST /api/reportMessage: a flag from the message menu (chat-and-characters §3 Report (message flag)). */
export const reportMessageRequest = z.object({
  message_id: z.uuid({ error: "Not a valid id" }),
  conversation_id: z.uuid({ error: "Not a valid id" }),
  character_id: z.uuid({ error: "Not a valid id" }),
  label: z.enum(flagLabels, { error: "Choose a reason" }),
  comment: z.string().trim().max(FLAG_COMMENT_MAX, `At most ${FLAG_COMMENT_MAX} characters`).default(""),
});
export type ReportMessageRequest = z.input<typeof reportMessageRequest>;

/** The answer to a report or a flag: the review it opened. */
export const reportReceipt = z.object({ review_id: z.string(), status: reviewStatus });
export type ReportReceipt = z.infer<typeof reportReceipt>;

/** The bot a review is about, as the review table shows it (deleted and underage bots included). */
export const reviewCharacter = z.object({
  id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  creator_username: z.string().nullable(),
  visibility,
  is_nsfw: z.boolean(),
  is_underage: z.boolean(),
  is_deleted: z.boolean(),
  moderation_status: moderationStatus,
  reportsType: z.array(z.string()),
});

/** accounts-billing-admin §3 Admin review, with what Hearth adds (kind, reporter, the flagged message). */
export const adminReview = z.object({
  id: z.string(),
  character_id: z.string(),
  character: reviewCharacter,
  kind: reviewKind,
  issue: z.string(),
  resolution: z.string(),
  details: z.string(),
  createdAt: z.string(),
  status: reviewStatus,
  action_taken: actionTaken.nullable(),
  reporter_username: z.string().nullable(),
  message_id: z.string().nullable(),
  conversation_id: z.string().nullable(),
  message_excerpt: z.string().nullable(),
  closed_at: z.string().nullable(),
  closed_by_username: z.string().nullable(),
});
export type AdminReview = z.infer<typeof adminReview>;

export const REVIEW_PAGE_SIZE = 25;
export const adminReviewQuery = z.object({
  status: reviewStatus.default("open"),
  kind: reviewKind.optional(),
  limit: queryInt32(1, 100).default(REVIEW_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});
export type AdminReviewQuery = z.input<typeof adminReviewQuery>;

export const adminReviewPage = z.object({
  reviews: z.array(adminReview),
  next_cursor: z.string().nullable(),
});
export type AdminReviewPage = z.infer<typeof adminReviewPage>;

/** PUT /api/admin/reviews/{id}: close a review, saying what was done. */
export const adminReviewUpdate = z.object({
  status: z.literal("closed"),
  action_taken: actionTaken.default("none"),
});
export type AdminReviewUpdate = z.input<typeof adminReviewUpdate>;

/**
 * PUT /api/admin/characters/{id}: a moderator's change to a bot (§7): make private, mark NSFW,
 * set or reset underage, approve or send back with reasons. `review_id` names the review the
 * change answers; every open review of the bot is closed with the matching action_taken.
 */
export const adminCharacterUpdate = z
  .object({
    visibility: visibility.optional(),
    is_nsfw: z.boolean().optional(),
    is_underage: z.boolean().optional(),
    moderation_status: z.enum(["approved", "fix_required"]).optional(),
    reason_for_moderation: z.array(z.string().trim().min(1).max(500)).max(20).optional(),
    action_taken_description: z.string().trim().max(2000).nullable().optional(),
    review_id: z.uuid({ error: "Not a valid id" }).optional(),
  })
  .refine(
    (v) =>
      v.visibility !== undefined ||
      v.is_nsfw !== undefined ||
      v.is_underage !== undefined ||
      v.moderation_status !== undefined,
    "Nothing to change",
  );
export type AdminCharacterUpdate = z.input<typeof adminCharacterUpdate>;

/** DELETE /api/admin/characters/{id}?review_id=…: the review the deletion answers (optional). */
export const adminCharacterDeleteQuery = z.object({
  review_id: z.uuid({ error: "Not a valid id" }).optional(),
});

/** What a moderator action did to a bot. */
export const adminCharacterResult = z.object({
  character: reviewCharacter,
  /** The reviews this action closed. */
  closed_reviews: z.array(z.string()),
});
export type AdminCharacterResult = z.infer<typeof adminCharacterResult>;

/** One administrator action: who, what, when, and the changed fields before and after. */
export const auditEntry = z.object({
  id: z.string(),
  actor_user_id: z.string().nullable(),
  actor_username: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const AUDIT_PAGE_SIZE = 50;
export const auditLogQuery = z.object({
  target_id: z.string().trim().max(100).optional(),
  limit: queryInt32(1, 200).default(AUDIT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});
export const auditLogPage = z.object({ entries: z.array(auditEntry), next_cursor: z.string().nullable() });
export type AuditLogPage = z.infer<typeof auditLogPage>;

import { endpoint, idParams } from "../endpoint.ts";
import {
  adminCharacterDeleteQuery,
  adminCharacterResult,
  adminCharacterUpdate,
  adminReview,
  adminReviewPage,
  adminReviewQuery,
  adminReviewUpdate,
  auditLogPage,
  auditLogQuery,
  reportCharacterRequest,
  reportMessageRequest,
  reportReceipt,
} from "../moderation.ts";

/**
 * Moderation (apps/server/src/features/moderation): members report bots and flag messages
 * (report_character); administrators work through the review table and every action they take
 * is written to the audit log. `PUT /api/admin/characters/{id}/moderation` (approve or send back)
 * is declared with the characters and served by this feature too.
 */
export const moderationEndpoints = {
  reportCharacter: endpoint({
    method: "POST",
    path: "/api/reportCharacter",
    summary: "Report a chatbot to the moderators (one open report per member and bot; 409 for a second)",
    tag: "Moderation",
    access: "member",
    body: reportCharacterRequest,
    response: reportReceipt,
    status: 201,
  }),
  reportMessage: endpoint({
    method: "POST",
    path: "/api/reportMessage",
    summary: "Flag a message of one's own chat to the moderators (a copy of its text is kept)",
    tag: "Moderation",
    access: "member",
    body: reportMessageRequest,
    response: reportReceipt,
    status: 201,
  }),
  listReviews: endpoint({
    method: "GET",
    path: "/api/admin/reviews",
    summary: "The review table: open or closed reviews, newest first, optionally of one kind",
    tag: "Admin: moderation",
    access: "admin",
    query: adminReviewQuery,
    response: adminReviewPage,
  }),
  updateReview: endpoint({
    method: "PUT",
    path: "/api/admin/reviews/{id}",
    summary: "Close a review, recording the action taken",
    tag: "Admin: moderation",
    access: "admin",
    params: idParams,
    body: adminReviewUpdate,
    response: adminReview,
  }),
  updateCharacter: endpoint({
    method: "PUT",
    path: "/api/admin/characters/{id}",
    summary:
      "A moderator's change to a bot (visibility, is_nsfw, is_underage, approve or send back); closes its open reviews",
    tag: "Admin: moderation",
    access: "admin",
    params: idParams,
    body: adminCharacterUpdate,
    response: adminCharacterResult,
  }),
  deleteCharacter: endpoint({
    method: "DELETE",
    path: "/api/admin/characters/{id}",
    summary: "Delete a bot as a moderator; its open reviews are closed with action_taken deleted",
    tag: "Admin: moderation",
    access: "admin",
    params: idParams,
    query: adminCharacterDeleteQuery,
    response: adminCharacterResult,
  }),
  auditLog: endpoint({
    method: "GET",
    path: "/api/admin/audit-log",
    summary: "Every administrator action, newest first (who, what, when, before and after)",
    tag: "Admin: moderation",
    access: "admin",
    query: auditLogQuery,
    response: auditLogPage,
  }),
};

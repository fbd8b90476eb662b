import type { AdminReview, AuditEntry } from "@hearth/contract";
import { avatarUrl } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { CharacterRow } from "../characters/index.ts";
import type { ReviewListRow } from "./queries.ts";
import type { AuditLogRow } from "./schema.ts";

/** The bot as the review table shows it: deleted and underage bots too, since moderators act on them. */
export function reviewCharacter(row: CharacterRow, creatorUsername: string | null, storage: FileStorage) {
  return {
    id: row.id,
    name: row.name,
    avatar_url: avatarUrl(storage, row.avatarKey),
    creator_username: creatorUsername,
    visibility: row.visibility,
    is_nsfw: row.isNsfw,
    is_underage: row.isUnderage,
    is_deleted: row.deletedAt !== null,
    moderation_status: row.moderationStatus,
    reportsType: row.reportsType,
  };
}

export function toAdminReview(r: ReviewListRow, storage: FileStorage): AdminReview {
  const review = r.review;
  return {
    id: review.id,
    character_id: review.characterId,
    character: reviewCharacter(r.character, r.creatorUsername, storage),
    kind: review.kind,
    issue: review.issue,
    resolution: review.resolution,
    details: review.details,
    createdAt: review.createdAt.toISOString(),
    status: review.status,
    action_taken: review.actionTaken,
    reporter_username: r.reporterUsername,
    message_id: review.messageId,
    conversation_id: review.conversationId,
    message_excerpt: review.messageExcerpt,
    closed_at: review.closedAt?.toISOString() ?? null,
    closed_by_username: r.closedByUsername,
  };
}

export function toAuditEntry(entry: AuditLogRow, actorUsername: string | null): AuditEntry {
  return {
    id: entry.id,
    actor_user_id: entry.actorUserId,
    actor_username: actorUsername,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: entry.createdAt.toISOString(),
  };
}

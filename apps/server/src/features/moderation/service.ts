import type {
  ActionTaken,
  AdminCharacterResult,
  AdminReview,
  adminCharacterUpdate,
  adminReviewQuery,
  adminReviewUpdate,
  auditLogQuery,
  CharacterModerationUpdate,
  ReportReceipt,
  reportCharacterRequest,
  reportMessageRequest,
} from "@hearth/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Viewer } from "../accounts/index.ts";
import {
  type CharacterRow,
  type CharacterService,
  canView,
  invalidAccess,
  type ModerationHooks,
  type ModeratorChange,
} from "../characters/index.ts";
import {
  ALREADY_FLAGGED_MESSAGE,
  ALREADY_REPORTED_MESSAGE,
  alreadyReported,
  assertOwnsMessage,
  MESSAGE_NOT_FOUND_MESSAGE,
} from "./policy.ts";
import { reviewCharacter, toAdminReview, toAuditEntry } from "./present.ts";
import {
  closeReviews,
  findFlaggableMessage,
  findReviewRow,
  insertAudit,
  insertReview,
  listAudit,
  listReviews,
  lockOpenReviews,
} from "./queries.ts";
import type { ReviewRow } from "./schema.ts";

export interface ModerationDeps {
  db: Db;
  storage: FileStorage;
  characters: CharacterService;
}

/** The longest copy of a flagged message kept with its review. */
const EXCERPT_MAX = 4000;

const BOT_REVIEW_ISSUE = { new_bot: "New public bot", edited_bot: "Edited public bot" } as const;

/** What characters calls inside its own transactions (injected into CharacterService by app.ts). */
export const moderationHooks: ModerationHooks = {
  async botAwaitsReview(tx, characterId, kind) {
    // An open review of the bot's content already covers this change (one per bot, by index).
    await insertReview(tx, { characterId, kind, issue: BOT_REVIEW_ISSUE[kind] });
  },
  async recordAdminAction(tx, action) {
    await insertAudit(tx, { ...action, actorUserId: action.actorUserId });
  },
};

/** Audit and answers name the contract's fields, not the columns. */
const FIELD_NAMES: Record<keyof ModeratorChange, string> = {
  visibility: "visibility",
  isNsfw: "is_nsfw",
  isUnderage: "is_underage",
  moderationStatus: "moderation_status",
  reasonForModeration: "reason_for_moderation",
  actionTakenDescription: "action_taken_description",
  reportsType: "reportsType",
};
function fieldsOf(row: CharacterRow, change: ModeratorChange): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(change) as (keyof ModeratorChange)[]) out[FIELD_NAMES[key]] = row[key];
  return out;
}

const isBotReview = (r: ReviewRow) => r.kind === "new_bot" || r.kind === "edited_bot";

/** The action a moderator's change records on the reviews it closes (§7). */
function actionOf(change: ModeratorChange): ActionTaken {
  if (change.visibility === "private" || change.visibility === "permanently_private") return "made_private";
  if (change.isNsfw === true) return "set_nsfw";
  if (change.isUnderage === false) return "reset_underage";
  if (change.moderationStatus === "approved") return "approved";
  if (change.moderationStatus === "fix_required") return "fix_required";
  return "none";
}

type AdminUpdate =
  | z.output<typeof adminCharacterUpdate>
  | (CharacterModerationUpdate & { review_id?: string });

/**
 * Reports, flags and the moderators' work. Every administrator action changes the bot, closes
 * the reviews it answers and writes its audit row in one transaction.
 */
export class ModerationService {
  constructor(private deps: ModerationDeps) {}

  async reportCharacter(
    viewer: Viewer,
    body: z.output<typeof reportCharacterRequest>,
  ): Promise<ReportReceipt> {
    const found = await this.deps.characters.find(body.character_id, viewer.id);
    // A bot the member cannot see is reported like it does not exist (the app's one 404).
    if (!found || !canView(viewer, found.character)) throw invalidAccess();
    const id = found.character.id;
    return this.tx(async (tx) => {
      const review = await insertReview(tx, {
        characterId: id,
        kind: "user_report",
        issue: body.userIssueType,
        resolution: body.userExpectedResolution,
        details: body.userReportDetails,
        reporterUserId: viewer.id,
      });
      if (!review) throw alreadyReported(ALREADY_REPORTED_MESSAGE);
      // reportsType names who reported the bot; the editor banner then says 'Reported'.
      await this.deps.characters.moderateIn(tx, id, (before) =>
        before.reportsType.includes("User") ? {} : { reportsType: [...before.reportsType, "User"] },
      );
      return { review_id: review.id, status: review.status };
    });
  }

  async reportMessage(viewer: Viewer, body: z.output<typeof reportMessageRequest>): Promise<ReportReceipt> {
    const message = await findFlaggableMessage(this.deps.db, body.message_id);
    assertOwnsMessage(viewer, message);
    if (
      !message ||
      message.conversationId !== body.conversation_id ||
      message.characterId !== body.character_id
    ) {
      throw notFound(MESSAGE_NOT_FOUND_MESSAGE);
    }
    const review = await insertReview(this.deps.db, {
      characterId: message.characterId,
      kind: "message_flag",
      issue: body.label,
      details: body.comment,
      reporterUserId: viewer.id,
      messageId: message.id,
      conversationId: message.conversationId,
      messageExcerpt: message.content.slice(0, EXCERPT_MAX),
    });
    if (!review) throw alreadyReported(ALREADY_FLAGGED_MESSAGE);
    return { review_id: review.id, status: review.status };
  }

  async listReviews(query: z.output<typeof adminReviewQuery>) {
    const { rows, nextCursor } = await listReviews(this.deps.db, query);
    return { reviews: rows.map((r) => toAdminReview(r, this.deps.storage)), next_cursor: nextCursor };
  }

  async auditLog(query: z.output<typeof auditLogQuery>) {
    const { rows, nextCursor } = await listAudit(this.deps.db, {
      limit: query.limit,
      ...(query.target_id !== undefined && { targetId: query.target_id }),
      ...(query.cursor !== undefined && { cursor: query.cursor }),
    });
    return { entries: rows.map((r) => toAuditEntry(r.entry, r.actorUsername)), next_cursor: nextCursor };
  }

  /**
   * PUT /api/admin/reviews/{id}. Closing a bot's own review (new or edited) with anything but
   * fix_required also ends the bot's wait: a pending bot becomes approved, editable again.
   */
  async closeReview(
    viewer: Viewer,
    id: string,
    update: z.output<typeof adminReviewUpdate>,
  ): Promise<AdminReview> {
    const found = await findReviewRow(this.deps.db, id);
    if (!found) throw notFound("No such review.");
    await this.tx(async (tx) => {
      const [open] = await lockOpenReviews(tx, found.review.characterId, [id]);
      if (!open) return; // Already closed: closing again changes nothing and writes nothing.
      const action = update.action_taken;
      let botChange: Record<string, unknown> | null = null;
      if (isBotReview(open) && action !== "fix_required") {
        const changed = await this.deps.characters.moderateIn(tx, open.characterId, (before) =>
          before.moderationStatus === "pending" || before.moderationStatus === "rereview_required"
            ? { moderationStatus: "approved" }
            : {},
        );
        if (changed && changed.before.moderationStatus !== changed.after.moderationStatus) {
          botChange = { moderation_status: changed.after.moderationStatus };
        }
      }
      await closeReviews(tx, [id], action, viewer.id);
      await insertAudit(tx, {
        actorUserId: viewer.id,
        action: "review.close",
        targetType: "review",
        targetId: id,
        before: { status: "open", action_taken: null },
        after: { status: "closed", action_taken: action, ...(botChange && { character: botChange }) },
      });
    });
    const row = await findReviewRow(this.deps.db, id);
    if (!row) throw notFound("No such review.");
    return toAdminReview(row, this.deps.storage);
  }

  /**
   * PUT /api/admin/characters/{id} (and the older /moderation call). With `review_id` that review
   * is closed; without it every open review of the bot is, since the spec's call names none. An
   * approval or a send-back also closes the bot's own open review. A bot's own review closed by
   * anything but a send-back ends its wait for review (approved).
   */
  async updateCharacter(
    viewer: Viewer,
    id: string,
    body: AdminUpdate,
  ): Promise<{ row: CharacterRow; closed: string[] }> {
    const change: ModeratorChange = {};
    if ("visibility" in body && body.visibility !== undefined) change.visibility = body.visibility;
    if ("is_nsfw" in body && body.is_nsfw !== undefined) change.isNsfw = body.is_nsfw;
    if ("is_underage" in body && body.is_underage !== undefined) change.isUnderage = body.is_underage;
    if (body.moderation_status !== undefined) change.moderationStatus = body.moderation_status;
    if (body.reason_for_moderation !== undefined) change.reasonForModeration = body.reason_for_moderation;
    if (body.action_taken_description !== undefined) {
      change.actionTakenDescription = body.action_taken_description;
    }
    if (change.moderationStatus === "approved") {
      // Approved: the reasons and the report marker of the last decision no longer apply.
      change.reasonForModeration ??= [];
      change.actionTakenDescription ??= null;
      change.reportsType = [];
    }
    const action = actionOf(change);
    return this.tx(async (tx) => {
      const open = await lockOpenReviews(tx, id);
      if (body.review_id && !open.some((r) => r.id === body.review_id)) {
        const exists = await findReviewRow(tx, body.review_id);
        if (!exists || exists.review.characterId !== id) throw notFound("No such review of this chatbot.");
      }
      // Putting a bot back in the queue (pending, rereview_required) closes nothing: it opens its review.
      const requeue =
        change.moderationStatus === "pending" || change.moderationStatus === "rereview_required";
      const decision = change.moderationStatus !== undefined;
      const closing = requeue
        ? []
        : open.filter((r) =>
            body.review_id ? r.id === body.review_id || (decision && isBotReview(r)) : true,
          );
      if (requeue) await moderationHooks.botAwaitsReview(tx, id, "edited_bot");
      const changed = await this.deps.characters.moderateIn(tx, id, (before) => {
        const endsWait =
          change.moderationStatus === undefined &&
          closing.some(isBotReview) &&
          (before.moderationStatus === "pending" || before.moderationStatus === "rereview_required");
        return endsWait ? { ...change, moderationStatus: "approved" } : change;
      });
      if (!changed) throw invalidAccess();
      const closed = await closeReviews(
        tx,
        closing.map((r) => r.id),
        action,
        viewer.id,
      );
      const written: ModeratorChange = { ...change };
      if (changed.after.moderationStatus !== changed.before.moderationStatus) {
        written.moderationStatus = changed.after.moderationStatus;
      }
      await insertAudit(tx, {
        actorUserId: viewer.id,
        action: "character.moderate",
        targetType: "character",
        targetId: id,
        before: fieldsOf(changed.before, written),
        after: {
          ...fieldsOf(changed.after, written),
          action_taken: action,
          closed_reviews: closed.map((r) => r.id),
        },
      });
      return { row: changed.after, closed: closed.map((r) => r.id) };
    });
  }

  find(id: string) {
    return this.deps.characters.find(id);
  }

  async result(row: CharacterRow, closedReviews: string[]): Promise<AdminCharacterResult> {
    const found = await this.deps.characters.find(row.id);
    return {
      character: reviewCharacter(found?.character ?? row, found?.creatorUsername ?? null, this.deps.storage),
      closed_reviews: closedReviews,
    };
  }

  /** DELETE /api/admin/characters/{id}: soft delete; its open reviews close with action_taken deleted. */
  async deleteCharacter(viewer: Viewer, id: string, reviewId?: string): Promise<AdminCharacterResult> {
    const { before, closed } = await this.tx(async (tx) => {
      const open = await lockOpenReviews(tx, id);
      if (reviewId && !open.some((r) => r.id === reviewId)) {
        const exists = await findReviewRow(tx, reviewId);
        if (!exists || exists.review.characterId !== id) throw notFound("No such review of this chatbot.");
      }
      const row = await this.deps.characters.deleteIn(tx, id);
      if (!row) throw invalidAccess();
      const done = await closeReviews(
        tx,
        open.map((r) => r.id),
        "deleted",
        viewer.id,
      );
      await insertAudit(tx, {
        actorUserId: viewer.id,
        action: "character.delete",
        targetType: "character",
        targetId: id,
        before: { deleted: false, name: row.name, visibility: row.visibility },
        after: { deleted: true, action_taken: "deleted", closed_reviews: done.map((r) => r.id) },
      });
      return { before: row, closed: done.map((r) => r.id) };
    });
    await this.deps.characters.removeFiles(before);
    return this.result(before, closed);
  }

  private tx<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.deps.db.transaction((tx) => fn(tx as unknown as Db));
  }
}

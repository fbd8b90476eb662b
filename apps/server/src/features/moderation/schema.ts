import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * One thing a moderator must look at (accounts-billing-admin §2.2 Admin review table): a new or
 * edited public bot, a member's report of a bot, or a flagged message. Closing it records what
 * was done (`action_taken`).
 */
export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["new_bot", "edited_bot", "user_report", "message_flag"] }).notNull(),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    /** The report's issue type (userIssueType, or a flag's label); for bot reviews the kind's text. */
    issue: text("issue").notNull().default(""),
    /** What the reporter expects (userExpectedResolution). */
    resolution: text("resolution").notNull().default(""),
    /** userReportDetails, or a flag's comment. */
    details: text("details").notNull().default(""),
    reporterUserId: text("reporter_user_id").references(() => users.id, { onDelete: "set null" }),
    /** A flagged message, kept as ids and a copy of its text: the chat may be deleted later. */
    messageId: text("message_id"),
    conversationId: text("conversation_id"),
    messageExcerpt: text("message_excerpt"),
    actionTaken: text("action_taken", {
      enum: ["deleted", "made_private", "set_nsfw", "reset_underage", "approved", "fix_required", "none"],
    }),
    closedByUserId: text("closed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    closedAt: ms("closed_at"),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("reviews_status_idx").on(t.status, t.createdAt.desc(), t.id.desc()),
    index("reviews_character_idx").on(t.characterId, t.status),
    // One member cannot flood: one open report (and one open flag) per member and bot.
    uniqueIndex("reviews_one_open_report_idx")
      .on(t.reporterUserId, t.characterId, t.kind)
      .where(sql`status = 'open' and reporter_user_id is not null`),
    // One open review of a bot's own content at a time (new or edited).
    uniqueIndex("reviews_one_open_bot_review_idx")
      .on(t.characterId)
      .where(sql`status = 'open' and kind in ('new_bot', 'edited_bot')`),
  ],
);

/** Every administrator action: who, what, when, and the target before and after. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("audit_log_target_idx").on(t.targetType, t.targetId),
  ],
);

export type ReviewRow = typeof reviews.$inferSelect;
export type AuditLogRow = typeof auditLog.$inferSelect;

import type { PromptReport, PromptTrim } from "@hearth/contract";
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";

/**
 * Conversations and their messages. A new message is one appended row (never a rewrite of the
 * chat), and pages are read by `seq`, so cost does not grow with a conversation's length.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    userPersonaId: text("user_persona_id"),
    label: text("label"),
    voiceId: text("voice_id"),
    /** False for guests: temporary, never listed, purged after a day. */
    isSaved: boolean("is_saved").notNull().default(true),
    messageCount: integer("message_count").notNull().default(0),
    /** The newest message, kept on the row so chat lists need no per-row message query. */
    lastMessagePreview: text("last_message_preview"),
    lastMessageRole: text("last_message_role", { enum: ["user", "bot"] }),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    contextStartMessageId: text("context_start_message_id"),
    /** Set while a reply is generated: one generation per conversation at a time. */
    activeGenerationId: text("active_generation_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("conversations_user_updated_idx").on(t.userId, t.updatedAt.desc(), t.id),
    index("conversations_user_character_idx").on(t.userId, t.characterId, t.updatedAt.desc()),
  ],
);

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    /** Global order; a conversation's messages are read by (conversation_id, seq). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "bot"] }).notNull(),
    /** The selected alternative's text (kept equal to alternatives[alternative_index]). */
    content: text("content").notNull(),
    alternatives: jsonb("alternatives").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    alternativeIndex: integer("alternative_index").notNull().default(0),
    state: text("state", { enum: ["complete", "streaming", "stopped", "interrupted", "failed"] })
      .notNull()
      .default("complete"),
    imageUrl: text("image_url"),
    imagePrompt: text("image_prompt"),
    /** The user's message rating, 1-4 (Terrible, Bad, Great, Fantastic); set once. */
    rating: integer("rating"),
    /** The reason chip chosen with the rating, and for a negative one what the user expected. */
    ratingReason: text("rating_reason"),
    ratingExpected: text("rating_expected"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("messages_conversation_seq_idx").on(t.conversationId, t.seq)],
);

export const generations = pgTable(
  "generations",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    action: text("action", { enum: ["send", "regenerate", "continue", "autopilot", "resubmit"] }).notNull(),
    status: text("status", { enum: ["queued", "running", "done", "stopped", "failed", "interrupted"] })
      .notNull()
      .default("queued"),
    /** The bot message being written (null for autopilot). */
    messageId: text("message_id"),
    modelId: text("model_id"),
    settings: jsonb("settings").$type<Record<string, number>>(),
    errorCode: text("error_code"),
    /** What the prompt builder cut to fit the model's window (null: nothing, or not built yet). */
    promptTrims: jsonb("prompt_trims").$type<PromptTrim[]>(),
    /** What the prompt held (memories, lore, history), for "why did it say that" (null: not recorded). */
    promptReport: jsonb("prompt_report").$type<StoredPromptReport>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Refreshed by the worker; a running generation whose heartbeat stops was cut off by a crash. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /**
     * Its place in the line for the model (generation/scheduling.ts): arrival plus its plan's
     * head start given to others, so better plans go first yet anyone who waits long enough is next.
     */
    turnAt: timestamp("turn_at", { withTimezone: true }).notNull().defaultNow(),
    /** The capacity it waits for: a remote server's slots, or this model's sequences in each process. */
    capacityKey: text("capacity_key").notNull().default(""),
    /** How many of its member's generations may run at once (its plan's limit when it was queued). */
    maxRunning: integer("max_running").notNull().default(1),
    /** The process running it (scheduling.ts `WORKER_ID`), for per-process capacity. */
    workerId: text("worker_id"),
    /** When a worker took it: with `finishedAt`, the measured service time behind wait estimates. */
    startedAt: timestamp("started_at", { withTimezone: true }),
  },
  (t) => [
    index("generations_status_heartbeat_idx").on(t.status, t.heartbeatAt),
    index("generations_queued_turn_idx").on(t.turnAt).where(sql`status = 'queued'`),
    index("generations_running_user_idx").on(t.userId).where(sql`status = 'running'`),
  ],
);

/** Messages sent per user per UTC day, for the daily limits of guests and free users. */
export const dailyUsage = pgTable(
  "daily_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    messages: integer("messages").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** The report as stored: the message id and time come from the generation row. */
/**
 * A prompt's record as stored: each lore entry also says whether it came from the character's own
 * book, whose entries a member who may not see the definition is not shown (generation/policy.ts).
 * Records from before that mark lack it, and count as the character's.
 */
export type StoredPromptReport = Omit<PromptReport, "message_id" | "generated_at" | "model_id" | "lore"> & {
  lore: (PromptReport["lore"][number] & { from_character?: boolean })[];
};

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type GenerationRow = typeof generations.$inferSelect;

import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { conversations } from "../chats/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A conversation's memories (chat-and-characters §2 Manage Memories). An automatic memory names
 * the messages it was written from, so editing or removing those messages can invalidate it.
 */
export const memories = pgTable(
  "memories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    pinned: boolean("pinned").notNull().default(false),
    source: text("source", { enum: ["manual", "auto"] })
      .notNull()
      .default("manual"),
    messageIds: jsonb("message_ids").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("memories_conversation_idx").on(t.conversationId, t.createdAt.desc()),
    // Keyword retrieval: PostgreSQL's full-text search, which PGlite has too.
    index("memories_content_fts_idx").using("gin", sql`to_tsvector('english', ${t.content})`),
    check("memories_content_length", sql`char_length(${t.content}) between 1 and 250`),
  ],
);

export type MemoryRow = typeof memories.$inferSelect;

/**
 * How far automatic memory has read a conversation: messages up to `throughSeq` have been
 * memorized (or found to hold nothing worth keeping). An edit or removal that drops automatic
 * memories moves it back, so those messages are memorized again: rewritten, not just dropped.
 */
export const memoryProgress = pgTable("memory_progress", {
  conversationId: text("conversation_id")
    .primaryKey()
    .references(() => conversations.id, { onDelete: "cascade" }),
  throughSeq: bigint("through_seq", { mode: "number" }).notNull().default(0),
  /**
   * Set when invalidated memories moved `throughSeq` back: those messages are memorized again
   * at once, without waiting for the usual few new exchanges.
   */
  rewrite: boolean("rewrite").notNull().default(false),
  updatedAt: ms("updated_at").notNull().defaultNow(),
});

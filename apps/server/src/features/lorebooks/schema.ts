import type { LorebookBody } from "@hearth/contract";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";
import { conversations } from "../chats/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A member's standalone lorebooks. `book` holds the settings and entries in the contract's wire
 * form (LorebookBody), checked by the contract on every write; name and description live in
 * columns for the list.
 */
export const lorebooks = pgTable(
  "lorebooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    book: jsonb("book").$type<LorebookBody>().notNull(),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [index("lorebooks_user_idx").on(t.userId, t.updatedAt.desc())],
);

export type LorebookRow = typeof lorebooks.$inferSelect;

/** Books attached to a conversation, applied to its replies in `position` order. */
export const conversationLorebooks = pgTable(
  "conversation_lorebooks",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    lorebookId: uuid("lorebook_id")
      .notNull()
      .references(() => lorebooks.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.lorebookId] }),
    index("conversation_lorebooks_lorebook_idx").on(t.lorebookId),
  ],
);

import { sql } from "drizzle-orm";
import { boolean, check, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Personas: who the user plays in a chat (chat-and-characters §3). Limits are the contract's
 * (name 1-30, highlights up to 1000); the checks here only stop a bug from storing more.
 */
export const personas = pgTable(
  "personas",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    highlights: text("highlights").notNull().default(""),
    /** Storage key prefix of the avatar; the files are `${key}-512.webp` and `${key}-128.webp`. */
    avatarKey: text("avatar_key"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // Names are unique per user ignoring case. text_pattern_ops lets the same index serve the
    // name-prefix search (`lower(name) like 'mi%'`) whatever the database's collation.
    uniqueIndex("personas_user_name_key").on(t.userId, sql`lower(${t.name}) text_pattern_ops`),
    // At most one default per user: a partial unique index (PGlite, PostgreSQL 15 and 18 alike).
    uniqueIndex("personas_user_default_key").on(t.userId).where(sql`is_default`),
    check("personas_name_length", sql`char_length(${t.name}) between 1 and 30`),
    check("personas_highlights_length", sql`char_length(${t.highlights}) <= 1000`),
  ],
);

export type PersonaRow = typeof personas.$inferSelect;
export type NewPersonaRow = typeof personas.$inferInsert;

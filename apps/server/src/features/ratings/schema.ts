import { sql } from "drizzle-orm";
import {
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * A member's rating of a bot (chat-and-characters §9): dislike / like / love sent as 1 / 3 / 5,
 * kept with its interaction score -1 / 0.5 / 1. One per member and bot; rating again replaces it.
 */
export const characterRatings = pgTable(
  "character_ratings",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    score: real("score").notNull(),
    conversationLength: integer("conversation_length").notNull().default(0),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.characterId] }),
    index("character_ratings_character_idx").on(t.characterId),
    index("character_ratings_updated_idx").on(t.updatedAt),
  ],
);

/** A member's suggested tag changes for a bot, waiting for its creator to accept or dismiss. */
export const tagSuggestions = pgTable(
  "tag_suggestions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tagsToAdd: text("tags_to_add").array().notNull().default(sql`'{}'::text[]`),
    tagsToRemove: text("tags_to_remove").array().notNull().default(sql`'{}'::text[]`),
    status: text("status", { enum: ["pending", "accepted", "dismissed"] })
      .notNull()
      .default("pending"),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    // A member's newer suggestion replaces their pending one.
    uniqueIndex("tag_suggestions_one_pending_idx").on(t.characterId, t.userId).where(sql`status = 'pending'`),
    index("tag_suggestions_character_idx").on(t.characterId, t.status),
  ],
);

export type CharacterRatingRow = typeof characterRatings.$inferSelect;
export type TagSuggestionRow = typeof tagSuggestions.$inferSelect;

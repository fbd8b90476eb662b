import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * Millisecond timestamps: JavaScript dates round-trip them exactly, so a cursor built from a
 * row's timestamp finds that row again (microseconds would be lost and rows skipped).
 */
const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** Listed means: reachable from browse, tags and creator pages (public, live, not rejected). */
const listed = sql`visibility = 'public' and deleted_at is null and moderation_status <> 'fix_required' and not is_underage`;

export const characters = pgTable(
  "characters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    title: text("title").notNull().default(""),
    greeting: text("greeting").notNull().default(""),
    alternateGreetings: jsonb("alternate_greetings").$type<string[]>().notNull().default([]),
    persona: text("persona").notNull().default(""),
    /** A card's personality summary, kept apart from the description (the persona). */
    personality: text("personality").notNull().default(""),
    scenario: text("scenario").notNull().default(""),
    dialogue: text("dialogue").notNull().default(""),
    systemPrompt: text("system_prompt").notNull().default(""),
    postHistoryInstructions: text("post_history_instructions").notNull().default(""),
    creatorNotes: text("creator_notes").notNull().default(""),
    /** Lower-cased, for search and filters (and other features' tag queries). */
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    /** The same tags as their creator wrote them ("White Hair"), for display and card export. */
    tagLabels: text("tag_labels").array().notNull().default(sql`'{}'::text[]`),
    /** Storage key prefix of the avatar; the files are `${key}-512.webp` and `${key}-128.webp`. */
    avatarKey: text("avatar_key"),
    /**
     * Storage key of the avatar's original image (an imported card's PNG without its card text),
     * exported as the card's art; the avatar files are square crops derived from it.
     */
    artKey: text("art_key"),
    avatarIsNsfw: boolean("avatar_is_nsfw").notNull().default(false),
    definitionVisible: boolean("definition_visible").notNull().default(false),
    visibility: text("visibility", { enum: ["public", "private", "permanently_private", "hidden"] })
      .notNull()
      .default("private"),
    numMessages: bigint("num_messages", { mode: "number" }).notNull().default(0),
    numFavorites: integer("num_favorites").notNull().default(0),
    ratingScore: real("rating_score"),
    tokenCount: integer("token_count").notNull().default(0),
    loraStatus: text("lora_status", { enum: ["not_trained", "pending", "ready", "failed"] })
      .notNull()
      .default("not_trained"),
    language: text("language").notNull().default("en"),
    isNsfw: boolean("is_nsfw").notNull().default(false),
    /** Set by a moderator when a bot may depict minors: such a bot is never listed, whatever its visibility. */
    isUnderage: boolean("is_underage").notNull().default(false),
    moderationStatus: text("moderation_status", {
      enum: ["approved", "pending", "rereview_required", "fix_required"],
    })
      .notNull()
      .default("approved"),
    reasonForModeration: jsonb("reason_for_moderation").$type<string[]>().notNull().default([]),
    actionTakenDescription: text("action_taken_description"),
    /** Who reported the bot ("User" when members did); filled by the reports feature. */
    reportsType: jsonb("reports_type").$type<string[]>().notNull().default([]),
    /** A card's lorebook, kept as written until the lorebook feature reads it. */
    characterBook: jsonb("character_book"),
    /** Unknown card `extensions`, kept so an import → export round trip loses nothing. */
    extensions: jsonb("extensions").$type<Record<string, unknown>>().notNull().default({}),
    /**
     * An imported card's source (cards/source.ts): its version and the storage keys of its data as
     * written (JSON text, key order kept) and of its CharX archive, with its art's hash. A small
     * pointer, so reading a character never carries a large card; an export writes back every
     * value Hearth has not changed.
     */
    cardSource: text("card_source"),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
    /** Soft delete: conversations (a later feature) still point here and answer "private or deleted". */
    deletedAt: ms("deleted_at"),
  },
  (t) => [
    // Browse sorts, each a partial index over listed bots with the id as tie-breaker.
    index("characters_browse_popular_idx").on(t.numMessages.desc(), t.id.desc()).where(listed),
    index("characters_browse_new_idx").on(t.createdAt.desc(), t.id.desc()).where(listed),
    index("characters_browse_rating_idx")
      .on(sql`coalesce(${t.ratingScore}, -1) desc nulls last`, t.id.desc())
      .where(listed),
    index("characters_creator_idx").on(t.creatorUserId, t.updatedAt.desc()),
    // Tag filter (`tags @> array[...]`) and the tags part of text search.
    index("characters_tags_idx").using("gin", t.tags),
  ],
);

export const favorites = pgTable(
  "favorites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.characterId] }),
    index("favorites_user_idx").on(t.userId, t.createdAt.desc(), t.characterId.desc()),
    index("favorites_character_idx").on(t.characterId),
  ],
);

/**
 * Messages sent to a bot per calendar month (UTC, `YYYY-MM`), counted beside `num_messages`: the
 * creators leaderboard scores a month by them, and guest chats that are purged still count.
 */
export const characterMonthlyMessages = pgTable(
  "character_monthly_messages",
  {
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    messages: integer("messages").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.characterId, t.month] }),
    index("character_monthly_messages_month_idx").on(t.month),
  ],
);

export type CharacterRow = typeof characters.$inferSelect;
export type NewCharacterRow = typeof characters.$inferInsert;

/**
 * A creator's translation of a bot's text fields into one language (issue 17 item 5):
 * `GET /api/characters/{id}?language=` serves it over the original; a null field keeps the original.
 */
export const characterTranslations = pgTable(
  "character_translations",
  {
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    /** A BCP 47 language tag, lowercased (`es`, `pt-br`). */
    language: text("language").notNull(),
    name: text("name"),
    title: text("title"),
    greeting: text("greeting"),
    persona: text("persona"),
    scenario: text("scenario"),
    dialogue: text("dialogue"),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.characterId, t.language] })],
);
export type CharacterTranslationRow = typeof characterTranslations.$inferSelect;

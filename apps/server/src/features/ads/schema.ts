import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** An operator's house ad (Admin → Ads): shown in chats of members with display_ads. */
export const ads = pgTable("ads", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  text: text("text").notNull(),
  imageUrl: text("image_url"),
  linkUrl: text("link_url").notNull(),
  advertiser: text("advertiser"),
  /** Shown beside bots carrying one of these tags; empty: any bot. */
  tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
  /** sfw, nsfw or any: which bots' chats it may appear in. */
  nsfw: text("nsfw").notNull().default("sfw"),
  active: boolean("active").notNull().default(true),
  createdAt: ms("created_at").notNull().defaultNow(),
  updatedAt: ms("updated_at").notNull().defaultNow(),
});
export type AdRow = typeof ads.$inferSelect;

/**
 * Views and clicks per ad and UTC day, counted as the events arrive. Keyed by text: an external
 * ad server's creative ids are counted too. Kept past the events' retention.
 */
export const adDailyStats = pgTable(
  "ad_daily_stats",
  {
    adId: text("ad_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    views: integer("views").notNull().default(0),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.adId, t.day] })],
);

/**
 * Product events (ad view and click, chat-UI events) for the operator's analytics; deleted after
 * HEARTH_EVENTS_RETENTION_DAYS, and with the account that sent them.
 */
export const productEvents = pgTable(
  "product_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    eventName: text("event_name").notNull(),
    /** chatUi's action, or the ad's id for ad events. */
    action: text("action"),
    characterId: uuid("character_id"),
    conversationId: uuid("conversation_id"),
    messageId: uuid("message_id"),
    detail: text("detail"),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("product_events_created_idx").on(t.createdAt),
    index("product_events_name_idx").on(t.eventName),
  ],
);

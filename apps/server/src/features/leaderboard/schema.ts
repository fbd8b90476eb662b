import { index, integer, pgTable, primaryKey, real, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * The creators leaderboard of one month and category, as a scheduled job computed it
 * (accounts-billing-admin §2.2): served from here, never computed per request.
 */
export const leaderboardEntries = pgTable(
  "leaderboard_entries",
  {
    /** Calendar month, UTC, `YYYY-MM`. */
    month: text("month").notNull(),
    category: text("category", { enum: ["new_bots", "all_bots"] }).notNull(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rank: integer("rank").notNull(),
    numberOfCharacters: integer("number_of_characters").notNull(),
    score: real("score").notNull(),
    /** Places gained since the previous month (positive: up); null when not ranked then. */
    movement: integer("movement"),
    computedAt: timestamp("computed_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.month, t.category, t.creatorUserId] }),
    index("leaderboard_entries_rank_idx").on(t.month, t.category, t.rank),
  ],
);

export type LeaderboardEntryRow = typeof leaderboardEntries.$inferSelect;

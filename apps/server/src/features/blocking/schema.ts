import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/** A member's blocked creators: their bots are hidden from that member and cannot be chatted with. */
export const blockedCreators = pgTable(
  "blocked_creators",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.creatorUserId] }),
    index("blocked_creators_user_idx").on(t.userId, t.createdAt.desc()),
  ],
);

export type BlockedCreatorRow = typeof blockedCreators.$inferSelect;

import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * The waiting room's line (issue 15): one row per member in it. In the database, not in memory,
 * so every process on PostgreSQL admits against the same capacity.
 * - `waiting`: in line; `last_seen_at` is the last time they asked (a line nobody polls is dropped).
 * - `access`: admitted at `granted_at`; `last_seen_at` is the last generation (idle access lapses).
 * - `expired`: access lapsed; the member is told once, then put back in line.
 */
export const waitingRoom = pgTable(
  "waiting_room",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["waiting", "access", "expired"] }).notNull(),
    /** Seconds added to `entered_at` to order the line (policy.ts `priorityOf`): plans first, with ageing. */
    priority: integer("priority").notNull(),
    enteredAt: timestamp("entered_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    grantedAt: timestamp("granted_at", { withTimezone: true, precision: 3 }),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("waiting_room_line_idx").on(t.status, t.priority, t.enteredAt)],
);

/**
 * How long each ended access held its slot (from admission to lapsing), the measured service
 * times the wait estimate is drawn from; kept a week.
 */
export const waitingRoomSessions = pgTable(
  "waiting_room_sessions",
  {
    id: serial("id").primaryKey(),
    endedAt: timestamp("ended_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    seconds: integer("seconds").notNull(),
  },
  (t) => [index("waiting_room_sessions_ended_idx").on(t.endedAt)],
);

export type WaitingRoomRow = typeof waitingRoom.$inferSelect;

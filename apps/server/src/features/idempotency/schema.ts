import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * The answers of requests sent with an `Idempotency-Key` header, one row per member, endpoint
 * and key, so a retry after a lost answer gets the first answer instead of a second import.
 * `status` and `answer` are null while the first request still runs. Rows older than a day are
 * deleted (queries.ts).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The endpoint, as `POST /api/...`: one key may be used once per endpoint. */
    endpoint: text("endpoint").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of what was sent: the same key with another request is refused, not replayed. */
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    answer: jsonb("answer"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.endpoint, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

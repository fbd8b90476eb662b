import { pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

/**
 * What an account import brought in, per archive: importing the same archive again (after a
 * failure part-way, or by mistake) adds only what is not already here, instead of a second copy.
 * The archive is named by the SHA-256 of its manifest, which holds its export time.
 */
export const accountImportItems = pgTable(
  "account_import_items",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    archiveSha256: text("archive_sha256").notNull(),
    /** character, conversation or lorebook. */
    kind: text("kind").notNull(),
    /** The item's id in the Hearth it was exported from. */
    sourceId: text("source_id").notNull(),
    /** What it became here. */
    targetId: uuid("target_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The key starts with the member, so it also serves "this member's items" (account deletion).
  (t) => [primaryKey({ columns: [t.userId, t.archiveSha256, t.kind, t.sourceId] })],
);

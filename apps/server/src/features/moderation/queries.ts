import type { ActionTaken, ReviewKind, ReviewStatus } from "@hearth/contract";
import { and, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";
import { conversations, messages } from "../chats/schema.ts";
import { type AuditLogRow, auditLog, type ReviewRow, reviews } from "./schema.ts";

/**
 * Reviews and the audit log. The review table shows each review beside its bot, creator and
 * reporter: those are read-only joins of characters and users (decision 010), one query a page.
 */

export type NewReview = typeof reviews.$inferInsert;
export type NewAuditEntry = typeof auditLog.$inferInsert;

/** Inserts a review unless an open one of its kind exists for that reporter (or bot): then null. */
export async function insertReview(db: Db, values: NewReview): Promise<ReviewRow | null> {
  // The partial unique indexes (one open report per member and bot, one open bot review) decide.
  const [row] = await db.insert(reviews).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findReview(db: Db, id: string): Promise<ReviewRow | null> {
  const [row] = await db.select().from(reviews).where(eq(reviews.id, id)).limit(1);
  return row ?? null;
}

/** A bot's open reviews, locked so two moderators do not close the same one twice. */
export async function lockOpenReviews(db: Db, characterId: string, ids?: string[]): Promise<ReviewRow[]> {
  return db
    .select()
    .from(reviews)
    .where(
      and(
        eq(reviews.characterId, characterId),
        eq(reviews.status, "open"),
        ids ? inArray(reviews.id, ids) : undefined,
      ),
    )
    .for("update");
}

export async function closeReviews(
  db: Db,
  ids: string[],
  action: ActionTaken,
  closedByUserId: string,
): Promise<ReviewRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(reviews)
    .set({ status: "closed", actionTaken: action, closedByUserId, closedAt: new Date() })
    .where(and(inArray(reviews.id, ids), eq(reviews.status, "open")))
    .returning();
}

/** A message with its conversation's owner and bot: who may flag it, and the text to keep. */
export async function findFlaggableMessage(db: Db, messageId: string) {
  const [row] = await db
    .select({
      id: messages.id,
      content: messages.content,
      conversationId: conversations.id,
      ownerId: conversations.userId,
      characterId: conversations.characterId,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(eq(messages.id, messageId))
    .limit(1);
  return row ?? null;
}

const creator = alias(users, "creator");
const reporter = alias(users, "reporter");
const closer = alias(users, "closer");

export interface ReviewListRow {
  review: ReviewRow;
  character: typeof characters.$inferSelect;
  creatorUsername: string | null;
  reporterUsername: string | null;
  closedByUsername: string | null;
}

const reviewSelect = {
  review: reviews,
  character: characters,
  creatorUsername: creator.username,
  reporterUsername: reporter.username,
  closedByUsername: closer.username,
};

function joined(db: Db) {
  return db
    .select(reviewSelect)
    .from(reviews)
    .innerJoin(characters, eq(characters.id, reviews.characterId))
    .leftJoin(creator, eq(creator.id, characters.creatorUserId))
    .leftJoin(reporter, eq(reporter.id, reviews.reporterUserId))
    .leftJoin(closer, eq(closer.id, reviews.closedByUserId));
}

/** `createdAt|id` of the last row: the next page starts strictly after it (newest first). */
function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split("|");
  const date = new Date(at ?? "");
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return id && uuid.test(id) && !Number.isNaN(date.getTime()) ? { at: date, id } : null;
}
const encodeCursor = (at: Date, id: string) => `${at.toISOString()}|${id}`;

export async function listReviews(
  db: Db,
  opts: { status: ReviewStatus; kind?: ReviewKind; limit: number; cursor?: string },
): Promise<{ rows: ReviewListRow[]; nextCursor: string | null }> {
  const filters: (SQL | undefined)[] = [eq(reviews.status, opts.status)];
  if (opts.kind) filters.push(eq(reviews.kind, opts.kind));
  const cursor = decodeCursor(opts.cursor);
  if (cursor) {
    filters.push(
      or(lt(reviews.createdAt, cursor.at), and(eq(reviews.createdAt, cursor.at), lt(reviews.id, cursor.id))),
    );
  }
  const rows = await joined(db)
    .where(and(...filters))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > opts.limit && last ? encodeCursor(last.review.createdAt, last.review.id) : null,
  };
}

export async function findReviewRow(db: Db, id: string): Promise<ReviewListRow | null> {
  const [row] = await joined(db).where(eq(reviews.id, id)).limit(1);
  return row ?? null;
}

export async function insertAudit(db: Db, entry: NewAuditEntry): Promise<void> {
  await db.insert(auditLog).values(entry);
}

export async function listAudit(
  db: Db,
  opts: { targetId?: string; limit: number; cursor?: string },
): Promise<{ rows: { entry: AuditLogRow; actorUsername: string | null }[]; nextCursor: string | null }> {
  const filters: (SQL | undefined)[] = [];
  if (opts.targetId) filters.push(eq(auditLog.targetId, opts.targetId));
  const cursor = decodeCursor(opts.cursor);
  if (cursor) {
    filters.push(
      or(
        lt(auditLog.createdAt, cursor.at),
        and(eq(auditLog.createdAt, cursor.at), lt(auditLog.id, cursor.id)),
      ),
    );
  }
  const rows = await db
    .select({ entry: auditLog, actorUsername: users.username })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > opts.limit && last ? encodeCursor(last.entry.createdAt, last.entry.id) : null,
  };
}

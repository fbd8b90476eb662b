import type { LorebookBody } from "@hearth/contract";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { perDatabase } from "../../db/per-database.ts";
import { conversations } from "../chats/schema.ts";
import { conversationLorebooks, type LorebookRow, lorebooks } from "./schema.ts";

/** Reads and writes of standalone books and their attachments; who may is the routes' (policy.ts). */

export function listLorebooks(db: Db, userId: string): Promise<LorebookRow[]> {
  return db
    .select()
    .from(lorebooks)
    .where(eq(lorebooks.userId, userId))
    .orderBy(desc(lorebooks.updatedAt), desc(lorebooks.createdAt), asc(lorebooks.id));
}

export async function countLorebooks(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(lorebooks)
    .where(eq(lorebooks.userId, userId));
  return Number(row?.n ?? 0);
}

/** The book if it is this user's, else null (another member's book is as missing). */
export async function findOwnLorebook(db: Db, userId: string, id: string): Promise<LorebookRow | null> {
  const [row] = await db
    .select()
    .from(lorebooks)
    .where(and(eq(lorebooks.id, id), eq(lorebooks.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function insertLorebook(db: Db, userId: string, book: LorebookBody): Promise<LorebookRow> {
  const [row] = await db
    .insert(lorebooks)
    .values({ userId, name: book.name, description: book.description, book })
    .returning();
  return row as LorebookRow;
}

export async function updateLorebook(db: Db, id: string, book: LorebookBody): Promise<LorebookRow | null> {
  const [row] = await db
    .update(lorebooks)
    .set({ name: book.name, description: book.description, book, updatedAt: sql`now()` })
    .where(eq(lorebooks.id, id))
    .returning();
  return row ?? null;
}

export async function deleteLorebook(db: Db, id: string): Promise<void> {
  await db.delete(lorebooks).where(eq(lorebooks.id, id));
}

/** The conversation's owner, or null when there is no such conversation. */
export async function conversationOwner(db: Db, conversationId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: conversations.userId })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .limit(1);
  return row?.userId ?? null;
}

/** The books attached to a conversation, in their order. */
export async function attachedLorebooks(db: Db, conversationId: string): Promise<LorebookRow[]> {
  const rows = await attachedLorebooksQuery(db).execute({ conversationId });
  return rows.map((r) => r.book);
}

/** Built once per database and prepared: every reply's prompt reads its chat's books. */
const attachedLorebooksQuery = perDatabase((db) =>
  db
    .select({ book: lorebooks })
    .from(conversationLorebooks)
    .innerJoin(lorebooks, eq(lorebooks.id, conversationLorebooks.lorebookId))
    .where(eq(conversationLorebooks.conversationId, sql.placeholder("conversationId")))
    .orderBy(asc(conversationLorebooks.position), asc(lorebooks.id))
    .prepare("hearth_attached_lorebooks"),
);

/** How many of these ids are books of this user. */
export async function countOwnLorebooks(db: Db, userId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(lorebooks)
    .where(and(eq(lorebooks.userId, userId), inArray(lorebooks.id, [...ids])));
  return Number(row?.n ?? 0);
}

/** Replaces a conversation's attached books with these, in this order, at once. */
export async function setAttachedLorebooks(
  db: Db,
  conversationId: string,
  lorebookIds: readonly string[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(conversationLorebooks).where(eq(conversationLorebooks.conversationId, conversationId));
    if (lorebookIds.length === 0) return;
    await tx
      .insert(conversationLorebooks)
      .values(lorebookIds.map((lorebookId, position) => ({ conversationId, lorebookId, position })));
  });
}

/** A clone keeps its source's attached books (`db` may be the clone's transaction). */
export async function copyConversationLorebooks(db: Db, from: string, to: string): Promise<void> {
  await db.execute(sql`
    insert into conversation_lorebooks (conversation_id, lorebook_id, position)
    select ${to}, lorebook_id, position from conversation_lorebooks where conversation_id = ${from}`);
}

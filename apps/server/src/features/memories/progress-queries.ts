import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { conversations, messages } from "../chats/schema.ts";
import { memoryProgress } from "./schema.ts";

/**
 * Where automatic memory stands in each conversation. Messages are read straight from the chats
 * tables (one join, like the ownership checks in queries.ts): chats itself calls into this
 * feature when messages change, so it cannot be asked back.
 */

export interface Progress {
  throughSeq: number;
  rewrite: boolean;
}

export async function progressOf(db: Db, conversationId: string): Promise<Progress> {
  const [row] = await db
    .select({ throughSeq: memoryProgress.throughSeq, rewrite: memoryProgress.rewrite })
    .from(memoryProgress)
    .where(eq(memoryProgress.conversationId, conversationId))
    .limit(1);
  return row ?? { throughSeq: 0, rewrite: false };
}

/** Records that messages up to `throughSeq` are memorized; `rewrite` stays set while some are left. */
export async function advanceProgress(
  db: Db,
  conversationId: string,
  throughSeq: number,
  rewrite: boolean,
): Promise<void> {
  await db
    .insert(memoryProgress)
    .values({ conversationId, throughSeq, rewrite })
    .onConflictDoUpdate({
      target: memoryProgress.conversationId,
      set: { throughSeq, rewrite, updatedAt: sql`now()` },
    });
}

/** Marks a conversation as looked at (nothing to do yet), so the backfill sweep passes it by. */
export async function touchProgress(db: Db, conversationId: string): Promise<void> {
  await db
    .insert(memoryProgress)
    .values({ conversationId })
    .onConflictDoUpdate({ target: memoryProgress.conversationId, set: { updatedAt: sql`now()` } });
}

/**
 * Moves progress back before the earliest of these messages that is still there and was already
 * read, and asks for a rewrite: the messages whose memories were dropped get new ones.
 */
export async function rewindProgress(db: Db, messageIds: readonly string[]): Promise<void> {
  for (let i = 0; i < messageIds.length; i += 1000) {
    const ids = sql.join(
      messageIds.slice(i, i + 1000).map((id) => sql`${id}`),
      sql`, `,
    );
    await db.execute(sql`
      update memory_progress p
      set through_seq = least(p.through_seq, earliest.seq - 1), rewrite = true, updated_at = now()
      from (
        select conversation_id, min(seq) as seq from messages where id in (${ids}) group by conversation_id
      ) earliest
      where p.conversation_id = earliest.conversation_id and earliest.seq <= p.through_seq
    `);
  }
}

export interface UnreadMessage {
  id: string;
  seq: number;
  role: "user" | "bot";
  content: string;
  updatedAt: Date;
}

/**
 * The next messages automatic memory has not read, oldest first, up to `limit`: finished ones
 * only (it stops at a reply still being written), and not those an automatic memory already
 * covers (after a rewind, only what lost its memories is read again).
 */
export async function unreadMessages(
  db: Db,
  conversationId: string,
  afterSeq: number,
  limit: number,
): Promise<UnreadMessage[]> {
  const rows = await db
    .select({
      id: messages.id,
      seq: messages.seq,
      role: messages.role,
      content: messages.content,
      state: messages.state,
      updatedAt: messages.updatedAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        gt(messages.seq, afterSeq),
        sql`not exists (
          select 1 from memories m
          where m.conversation_id = ${conversationId} and m.source = 'auto' and m.message_ids ? ${messages.id}
        )`,
      ),
    )
    .orderBy(messages.seq)
    .limit(limit);
  const finished: UnreadMessage[] = [];
  for (const r of rows) {
    if (r.state === "streaming") break;
    finished.push({ id: r.id, seq: r.seq, role: r.role, content: r.content, updatedAt: r.updatedAt });
  }
  return finished;
}

/** True when none of these messages changed since they were read (a memory written from them still holds). */
export async function unchangedSince(db: Db, read: readonly UnreadMessage[]): Promise<boolean> {
  if (read.length === 0) return true;
  const current = await db
    .select({ id: messages.id, state: messages.state, updatedAt: messages.updatedAt })
    .from(messages)
    .where(
      inArray(
        messages.id,
        read.map((m) => m.id),
      ),
    );
  const now = new Map(current.map((m) => [m.id, m]));
  return read.every((m) => {
    const row = now.get(m.id);
    return (
      row !== undefined && row.state !== "streaming" && row.updatedAt.getTime() === m.updatedAt.getTime()
    );
  });
}

/** A conversation's owner, character and persona, for naming speakers. */
export async function conversationForMemory(
  db: Db,
  conversationId: string,
): Promise<{ userId: string; characterId: string; personaId: string | null } | null> {
  const [row] = await db
    .select({
      userId: conversations.userId,
      characterId: conversations.characterId,
      personaId: conversations.userPersonaId,
    })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .limit(1);
  return row ?? null;
}

/**
 * Conversations that may have unread messages: written in since automatic memory last looked, or
 * asked to rewrite, newest first. The caller checks each owner's plan.
 */
export async function conversationsToBackfill(
  db: Db,
  minMessages: number,
  limit: number,
): Promise<{ id: string; userId: string }[]> {
  const result = await db.execute<{ id: string; user_id: string }>(sql`
    select c.id, c.user_id from conversations c
    left join memory_progress p on p.conversation_id = c.id
    where c.message_count >= ${sql.raw(String(minMessages))}
      and (p.conversation_id is null or p.rewrite or c.last_message_at > p.updated_at)
    order by c.last_message_at desc nulls last
    limit ${sql.raw(String(limit))}
  `);
  return result.rows.map((r) => ({ id: r.id, userId: r.user_id }));
}

import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { conversations } from "../chats/schema.ts";
import { rewindProgress } from "./progress-queries.ts";
import { type MemoryRow, memories } from "./schema.ts";
import { type SemanticQuery, semanticRanking } from "./vectors.ts";

/**
 * Memories are a conversation's: who may touch one is decided by the conversation's owner, read
 * here with a join rather than through the chats feature, which itself reads memories for prompts.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The conversation's owner, or null when there is no such conversation. */
export async function conversationOwner(db: Db, conversationId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: conversations.userId })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .limit(1);
  return row?.userId ?? null;
}

/** The memory if it lies in one of this user's conversations, else null. */
export async function findOwnMemory(db: Db, userId: string, id: string): Promise<MemoryRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({ memory: memories })
    .from(memories)
    .innerJoin(conversations, eq(conversations.id, memories.conversationId))
    .where(and(eq(memories.id, id), eq(conversations.userId, userId)))
    .limit(1);
  return row?.memory ?? null;
}

/** Pinned first, then newest first. */
export function listMemories(db: Db, conversationId: string): Promise<MemoryRow[]> {
  return db
    .select()
    .from(memories)
    .where(eq(memories.conversationId, conversationId))
    .orderBy(desc(memories.pinned), desc(memories.createdAt), asc(memories.id));
}

export async function countMemories(db: Db, conversationId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memories)
    .where(eq(memories.conversationId, conversationId));
  return Number(row?.n ?? 0);
}

export async function insertMemory(
  db: Db,
  values: {
    conversationId: string;
    content: string;
    pinned: boolean;
    source: "manual" | "auto";
    messageIds?: string[];
  },
): Promise<MemoryRow> {
  const [row] = await db
    .insert(memories)
    .values({ ...values, messageIds: values.messageIds ?? [] })
    .returning();
  return row as MemoryRow;
}

export async function updateMemory(
  db: Db,
  id: string,
  change: Partial<Pick<MemoryRow, "content" | "pinned" | "source" | "messageIds">>,
): Promise<MemoryRow | null> {
  const [row] = await db
    .update(memories)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(memories.id, id))
    .returning();
  return row ?? null;
}

export async function deleteMemory(db: Db, id: string): Promise<void> {
  await db.delete(memories).where(eq(memories.id, id));
}

/** A memory with its fused relevance to the latest turns (pinned ones rank first, always). */
export interface RankedMemory {
  id: string;
  content: string;
  pinned: boolean;
  score: number;
}

/** How many candidates each ranking contributes before fusion. */
const CANDIDATES = 50;
/** Reciprocal rank fusion's constant (the usual 60): a rank's weight is 1 / (K + rank). */
const RRF_K = 60;
/** Recency counts half as much as a keyword match. */
const RECENCY_WEIGHT = 0.5;

/**
 * Words of the latest turns as an OR text-search query: letters and digits only, so nothing the
 * user wrote can be read as query syntax.
 */
export function keywordQuery(text: string, maxTerms = 32): string {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return [...new Set(words)].slice(-maxTerms).join(" | ");
}

/**
 * The conversation's memories by relevance to `text`: pinned first, then keyword rank
 * (full-text search) and, when vectors are on, similarity of meaning, fused with recency by
 * reciprocal rank fusion. Memories matching nothing still come by recency, so a short chat's
 * newest facts are used.
 */
export async function rankMemories(
  db: Db,
  conversationId: string,
  text: string,
  semantic: SemanticQuery | null = null,
): Promise<RankedMemory[]> {
  const terms = keywordQuery(text);
  const none = sql`select null::uuid as id, 0::bigint as r where false`;
  const keyword = terms
    ? sql`select id, row_number() over (order by ts_rank(to_tsvector('english', content), q) desc, created_at desc) as r
          from memories, to_tsquery('english', ${terms}) q
          where conversation_id = ${conversationId} and not pinned and to_tsvector('english', content) @@ q
          order by r limit ${sql.raw(String(CANDIDATES))}`
    : none;
  const meaning = semantic ? semanticRanking(conversationId, semantic, CANDIDATES) : none;
  const k = sql.raw(String(RRF_K));
  const result = await db.execute<{
    id: string;
    content: string;
    pinned: boolean;
    score: number | string;
  }>(sql`
    with keyword as (${keyword}),
    meaning as (${meaning}),
    recent as (
      select id, row_number() over (order by created_at desc, id) as r
      from memories where conversation_id = ${conversationId} and not pinned
      order by r limit ${sql.raw(String(CANDIDATES))}
    )
    select m.id, m.content, m.pinned,
      coalesce(1.0 / (${k} + keyword.r), 0)
        + coalesce(1.0 / (${k} + meaning.r), 0)
        + coalesce(${sql.raw(String(RECENCY_WEIGHT))} / (${k} + recent.r), 0) as score
    from memories m
    left join keyword on keyword.id = m.id
    left join meaning on meaning.id = m.id
    left join recent on recent.id = m.id
    where m.conversation_id = ${conversationId}
      and (m.pinned or keyword.id is not null or meaning.id is not null or recent.id is not null)
    order by m.pinned desc, score desc, m.created_at desc
  `);
  return result.rows.map((r) => ({ id: r.id, content: r.content, pinned: r.pinned, score: Number(r.score) }));
}

/** Copies a conversation's memories to its clone: manual ones, and automatic ones whose messages all came along. */
export async function copyMemories(
  db: Db,
  from: string,
  to: string,
  messageIdMap: ReadonlyMap<string, string>,
): Promise<number> {
  const rows = await listMemories(db, from);
  const kept = rows.filter((m) => m.source === "manual" || m.messageIds.every((id) => messageIdMap.has(id)));
  if (kept.length === 0) return 0;
  await db.insert(memories).values(
    kept.map((m) => ({
      conversationId: to,
      content: m.content,
      pinned: m.pinned,
      source: m.source,
      messageIds: m.messageIds.map((id) => messageIdMap.get(id) as string),
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    })),
  );
  return kept.length;
}

/**
 * Memories follow their messages: automatic memories written from any of these messages are
 * dropped when one is edited, removed, regenerated or switched to another alternative (what it
 * said is no longer what the memory came from), and automatic memory reads those messages again
 * (`rewindProgress`), so what they now say is remembered instead. The user's own memories stay.
 */
export async function forgetMemoriesOf(db: Db, messageIds: readonly string[]): Promise<number> {
  let forgotten = 0;
  const reread = new Set(messageIds);
  for (let i = 0; i < messageIds.length; i += 1000) {
    const ids = messageIds.slice(i, i + 1000);
    const gone = await db
      .delete(memories)
      .where(
        and(
          eq(memories.source, "auto"),
          sql`${memories.messageIds} ?| array[${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )}]::text[]`,
        ),
      )
      .returning({ id: memories.id, messageIds: memories.messageIds });
    forgotten += gone.length;
    for (const m of gone) for (const id of m.messageIds) reread.add(id);
  }
  await rewindProgress(db, [...reread]);
  return forgotten;
}

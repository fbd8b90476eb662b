import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { EmbeddingBackend } from "../../ports/embeddings.ts";

/**
 * Memory vectors (decision 014): each memory's embedding in `memory_vectors`, a pgvector table
 * made at start-up where the extension exists (always on PGlite, which bundles it; on PostgreSQL
 * only where pgvector is installed: Debian's has none). It lives outside the migrations because
 * its type may not exist; memories recall by keywords alone without it.
 */

/** Memories embedded per recall at most: a chat's backlog catches up over a few replies. */
const EMBED_PER_RECALL = 64;

/** Makes the table when pgvector can be had; answers whether memories may use vectors. */
export async function enableMemoryVectors(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`create extension if not exists vector`);
  } catch {
    return false; // Not installed on this PostgreSQL, or not ours to install.
  }
  const create = sql`
    create table if not exists memory_vectors (
      memory_id uuid primary key references memories(id) on delete cascade,
      conversation_id text not null,
      model text not null,
      content_md5 text not null,
      embedding vector not null
    )`;
  try {
    await db.execute(create);
  } catch {
    // Two processes starting at once race on the catalog: the other one made it.
    await db.execute(create);
  }
  await db.execute(
    sql`create index if not exists memory_vectors_conversation_idx on memory_vectors (conversation_id, model)`,
  );
  return true;
}

/** pgvector's text form of a vector. */
const literal = (vector: readonly number[]) =>
  `[${vector.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;

/**
 * Embeds the conversation's memories that have no vector from this model for their current text
 * (new, edited, or embedded by another model), a bounded number per call.
 */
export async function embedMissing(
  db: Db,
  embedder: EmbeddingBackend,
  conversationId: string,
): Promise<number> {
  const missing = await db.execute<{ id: string; content: string }>(sql`
    select m.id, m.content from memories m
    left join memory_vectors v
      on v.memory_id = m.id and v.model = ${embedder.model} and v.content_md5 = md5(m.content)
    where m.conversation_id = ${conversationId} and v.memory_id is null
    order by m.created_at desc
    limit ${sql.raw(String(EMBED_PER_RECALL))}
  `);
  if (missing.rows.length === 0) return 0;
  const vectors = await embedder.embed(missing.rows.map((r) => r.content));
  const rows = missing.rows.map(
    (row, i) =>
      sql`(${row.id}, ${conversationId}, ${embedder.model}, md5(${row.content}), ${literal(vectors[i] ?? [])}::vector)`,
  );
  await db.execute(sql`
    insert into memory_vectors (memory_id, conversation_id, model, content_md5, embedding)
    values ${sql.join(rows, sql`, `)}
    on conflict (memory_id) do update
      set model = excluded.model, content_md5 = excluded.content_md5, embedding = excluded.embedding
  `);
  return missing.rows.length;
}

/** What a semantic ranking needs: the query's vector and the model that made it. */
export interface SemanticQuery {
  vector: number[];
  model: string;
}

/** The query's vector, after bringing the conversation's memory vectors up to date. */
export async function semanticQuery(
  db: Db,
  embedder: EmbeddingBackend,
  conversationId: string,
  text: string,
): Promise<SemanticQuery> {
  await embedMissing(db, embedder, conversationId);
  const [vector] = await embedder.embed([text]);
  return { vector: vector ?? [], model: embedder.model };
}

/**
 * A ranking CTE body (id, r) of the conversation's unpinned memories by cosine distance to the
 * query, for rankMemories' fusion.
 */
export function semanticRanking(conversationId: string, query: SemanticQuery, limit: number): SQL {
  return sql`select v.memory_id as id, row_number() over (order by v.embedding <=> ${literal(query.vector)}::vector) as r
    from memory_vectors v join memories m on m.id = v.memory_id
    where v.conversation_id = ${conversationId} and v.model = ${query.model} and not m.pinned
      and v.content_md5 = md5(m.content)
    order by r limit ${sql.raw(String(limit))}`;
}

import type { ConversationCreated, PromptReport } from "@hearth/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { LlamaEmbeddingBackend } from "../../adapters/llama-embeddings.ts";
import type { Db } from "../../db/client.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { insertMemory, rankMemories, updateMemory } from "./queries.ts";
import { embedMissing, enableMemoryVectors, semanticQuery } from "./vectors.ts";

/** Whether this database can have pgvector at all (PGlite always; PostgreSQL where installed). */
async function pgvectorAvailable(db: Db): Promise<boolean> {
  const r = await db.execute<{ n: number | string }>(
    sql`select count(*) as n from pg_available_extensions where name = 'vector'`,
  );
  return Number(r.rows[0]?.n ?? 0) > 0;
}

const vectorCount = async (db: Db, conversationId: string) => {
  const r = await db.execute<{ n: number | string }>(
    sql`select count(*) as n from memory_vectors where conversation_id = ${conversationId}`,
  );
  return Number(r.rows[0]?.n ?? 0);
};

/** Memory vectors: made where pgvector exists, kept in step with memories, fused into recall. */
describe.each(drivers)("memory vectors on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let base: string;
  let sam: Person;
  let embedder: LlamaEmbeddingBackend;
  let vectorsOn: boolean;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: { EMBEDDINGS_MODEL: "bundled", LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" },
    });
    a = api(h);
    base = await h.listen();
    sam = await personAs(h, "basic", "Sam");
    embedder = await LlamaEmbeddingBackend.load({ modelPath: TEST_MODEL_PATH, threads: 1 });
    vectorsOn = await pgvectorAvailable(h.database.db);
  });
  afterAll(async () => {
    await embedder.close();
    await h.stop();
  });

  const newChat = async () => {
    const character = await insertTestCharacter(h.database.db, sam.id as string);
    const res = await a.post("/api/conversations", { character_id: character.id }, sam);
    return res.json<ConversationCreated>().conversation.id;
  };

  it("turns vectors on exactly where pgvector exists (always on PGlite)", async () => {
    expect(await enableMemoryVectors(h.database.db)).toBe(vectorsOn);
    if (driver === "pglite") expect(vectorsOn).toBe(true);
  });

  it("embeds new and edited memories once, and ranks by meaning where keywords and recency do not", async () => {
    if (!vectorsOn) return;
    const db = h.database.db;
    const chat = await newChat();
    const oldest = await insertMemory(db, {
      conversationId: chat,
      content: "Sam buried the brass key under the oak.",
      pinned: false,
      source: "manual",
    });
    for (let i = 0; i < 5; i++) {
      await insertMemory(db, {
        conversationId: chat,
        content: `Mira sang song number ${i}.`,
        pinned: false,
        source: "manual",
      });
    }
    expect(await embedMissing(db, embedder, chat)).toBe(6);
    expect(await embedMissing(db, embedder, chat)).toBe(0);
    await updateMemory(db, oldest.id, { content: "Sam buried the brass key under the old oak." });
    expect(await embedMissing(db, embedder, chat)).toBe(1);
    expect(await vectorCount(db, chat)).toBe(6);

    // No keyword in common: recency alone puts the oldest memory last; its meaning (nearest of
    // all) lifts it to the top two, fused with the newest memory's recency.
    const text = "...";
    const query = await semanticQuery(db, embedder, chat, "Sam buried the brass key under the old oak.");
    const place = async (q: typeof query | null) =>
      (await rankMemories(db, chat, text, q)).findIndex((m) => m.id === oldest.id);
    expect(await place(null)).toBe(5);
    expect(await place(query)).toBeLessThanOrEqual(1);
  });

  it("recalls memories for a reply with the embedding model configured, vectors or not", async () => {
    const chat = await newChat();
    const add = await a.post(
      `/api/conversations/${chat}/memories`,
      { content: "Sam's lantern is blue." },
      sam,
    );
    expect(add.statusCode, add.body).toBe(201);
    const res = await fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: sam.cookie as string, "content-type": "application/json" },
      body: JSON.stringify({
        type: "text",
        conversation_id: chat,
        action: "send",
        content: "Where is my lantern?",
        settings: { max_new_tokens: 180, temperature: 0, top_k: 1 },
      }),
    });
    expect(res.status).toBe(200);
    const done = (await readSse(res)).map((m) => m.event).find((e) => e.type === "done");
    const replyId = done?.type === "done" ? (done.message?.id as string) : "";
    const report = (await a.get(`/api/messages/${replyId}/prompt`, sam)).json<PromptReport>();
    expect(report.memories.map((m) => m.content)).toEqual(["Sam's lantern is blue."]);
    if (vectorsOn) expect(await vectorCount(h.database.db, chat)).toBe(1);
  });
});

import { randomUUID } from "node:crypto";
import type { ConversationCreated, MemoryList, MessagePage } from "@hearth/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { LlmError } from "../../ports/llm.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { conversations, messages } from "../chats/schema.ts";
import {
  type AutoMemoryDeps,
  backfill,
  memoryStream,
  queueAutoMemory,
  runAutoMemory,
} from "./auto-memory.ts";
import { progressOf } from "./progress-queries.ts";
import { listMemories } from "./queries.ts";

/** Facts a member states, each rich enough (names, places) to be worth remembering. */
const FACTS = [
  "My sister Lena keeps the brass key in Eastwatch.",
  "Captain Orrin sank the Gray Heron near Saltmere in the storm.",
  "We promised Mira we would reach Harrowgate before the winter fair.",
];

const hearthFor = (driver: (typeof drivers)[number], redis = false) =>
  startTestHearth({ driver, redis, env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });

/** The deps the installed worker uses, for calling the job directly. */
const depsOf = (h: TestHearth, over: Partial<AutoMemoryDeps> = {}): AutoMemoryDeps => ({
  db: h.database.db,
  queue: h.queue,
  bus: h.bus,
  site: h.config,
  backend: () => h.inference.backend(),
  repliesWaiting: async () => 0,
  log: (error) => {
    throw error;
  },
  ...over,
});

/** Resolves with the next "memories written" event of a conversation after `afterId`. */
async function nextWritten(h: TestHearth, conversationId: string, afterId = "0") {
  const stop = new AbortController();
  for await (const event of h.bus.read(memoryStream(conversationId), afterId, stop.signal)) {
    stop.abort();
    return event;
  }
  throw new Error("the memory stream ended");
}

/** A conversation with these messages stored as if chatted long ago (the greeting first). */
async function oldChat(h: TestHearth, who: Person, texts: string[]): Promise<string> {
  const db = h.database.db;
  const character = await insertTestCharacter(db, who.id as string);
  const id = randomUUID();
  await db.insert(conversations).values({ id, userId: who.id as string, characterId: character.id });
  for (const [i, content] of ["*looks up* Oh, hello!", ...texts].entries()) {
    const role = i % 2 === 0 ? "bot" : "user";
    await db
      .insert(messages)
      .values({ id: randomUUID(), conversationId: id, role, content, alternatives: [content] });
  }
  await db
    .update(conversations)
    .set({ messageCount: texts.length + 1, lastMessageAt: sql`now()` })
    .where(eq(conversations.id, id));
  return id;
}

/** Alternates facts with the character's short answers, as a chat would. */
const chatLines = (facts: string[]) => facts.flatMap((fact) => [fact, "*nods slowly* I will remember that."]);

describe.each(drivers)("automatic memory on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let base: string;

  beforeAll(async () => {
    h = await hearthFor(driver);
    a = api(h);
    base = await h.listen();
  });
  afterAll(async () => {
    await h.stop();
  });

  const send = async (who: Person, conversationId: string, content: string) => {
    const res = await fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: who.cookie as string, "content-type": "application/json" },
      body: JSON.stringify({
        type: "text",
        conversation_id: conversationId,
        action: "send",
        content,
        settings: { max_new_tokens: 180, temperature: 0, top_k: 1 },
      }),
    });
    expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
    return readSse(res);
  };

  it("writes memories of a True Supporter's chat after three exchanges, each tied to its message, never the greeting", async () => {
    const sam = await personAs(h, "basic", "Sam");
    const character = await insertTestCharacter(h.database.db, sam.id as string);
    const created = await a.post("/api/conversations", { character_id: character.id }, sam);
    const chat = created.json<ConversationCreated>().conversation.id;
    const written = nextWritten(h, chat);
    for (const fact of FACTS) await send(sam, chat, fact);
    // The third reply queued the job; its event says the memories are stored.
    expect((await written).data).toMatchObject({ type: "written" });

    const listed = (await a.get(`/api/conversations/${chat}/memories`, sam)).json<MemoryList>();
    expect(listed.automatic).toBe(true);
    const page = (await a.get(`/api/conversations/${chat}/messages`, sam)).json<MessagePage>();
    const byId = new Map(page.messages.map((m) => [m.id, m]));
    const auto = listed.memories.filter((m) => m.source === "auto");
    expect(auto.length).toBeGreaterThan(0);
    for (const m of auto) {
      expect(m.message_ids.length).toBeGreaterThan(0);
      for (const id of m.message_ids) expect(byId.has(id)).toBe(true);
      expect(m.message_ids).not.toContain(page.messages[0]?.id);
    }
    const lena = auto.find((m) => m.content.includes("Lena"));
    expect(lena?.content).toBe(`Sam: ${FACTS[0]}`);
    expect(byId.get(lena?.message_ids[0] as string)?.content).toBe(FACTS[0]);
    expect(await progressOf(h.database.db, chat)).toEqual({
      throughSeq: expect.any(Number),
      rewrite: false,
    });
  });

  it("rewrites a memory when its message is edited: the old fact is gone, the new one remembered", async () => {
    const sam = await personAs(h, "premium", "Sam");
    const chat = await oldChat(h, sam, chatLines(FACTS));
    expect(await runAutoMemory(depsOf(h), chat)).toBeGreaterThan(0);
    const before = await listMemories(h.database.db, chat);
    const lena = before.find((m) => m.content.includes("Lena"));
    expect(lena).toBeDefined();

    const edited = "My brother Tomas keeps the brass key in Harrowgate.";
    const res = await a.patch(`/api/messages/${lena?.messageIds[0]}`, { content: edited }, sam);
    expect(res.statusCode, res.body).toBe(200);
    expect((await progressOf(h.database.db, chat)).rewrite).toBe(true);
    expect(await runAutoMemory(depsOf(h), chat)).toBe(1);

    const after = (await listMemories(h.database.db, chat)).map((m) => m.content);
    expect(after.some((c) => c.includes("Lena"))).toBe(false);
    expect(after).toContain(`Sam: ${edited}`);
    // The other facts' memories were left alone, not written twice.
    expect(after).toHaveLength(before.length);
    expect((await progressOf(h.database.db, chat)).rewrite).toBe(false);
  });

  it.each<Role>(["free", "minimal"])("writes none for a %s member", async (role) => {
    const who = await personAs(h, role, "Sam");
    const chat = await oldChat(h, who, chatLines(FACTS));
    expect(await runAutoMemory(depsOf(h), chat)).toBe(0);
    expect(await listMemories(h.database.db, chat)).toEqual([]);
  });

  it("waits for a few exchanges, and gives way while replies wait for the model", async () => {
    const sam = await personAs(h, "basic", "Sam");
    const short = await oldChat(h, sam, chatLines(FACTS.slice(0, 2)));
    expect(await runAutoMemory(depsOf(h), short)).toBe(0);
    const chat = await oldChat(h, sam, chatLines(FACTS));
    expect(await runAutoMemory(depsOf(h, { repliesWaiting: async () => 1 }), chat)).toBe(0);
    expect((await progressOf(h.database.db, chat)).throughSeq).toBe(0);
    expect(await runAutoMemory(depsOf(h), chat)).toBeGreaterThan(0);
  });

  it("still remembers when the model fails: the messages' own sentences, and the failure logged", async () => {
    const sam = await personAs(h, "basic", "Sam");
    const chat = await oldChat(h, sam, chatLines(FACTS));
    const logged: string[] = [];
    const down = depsOf(h, {
      backend: () => Promise.reject(new LlmError("The model server is down.", "unavailable")),
      log: (_error, what) => void logged.push(what),
    });
    expect(await runAutoMemory(down, chat)).toBeGreaterThan(0);
    expect((await listMemories(h.database.db, chat)).map((m) => m.content)).toContain(`Sam: ${FACTS[0]}`);
    expect(logged).toEqual(["the model could not write memories; they are taken from the messages"]);
  });

  it("backfills an old chat from the queue, batch by batch, to its last message", async () => {
    const sam = await personAs(h, "basic", "Sam");
    // Fifteen messages with the greeting: two batches (eight, then seven), nothing left over.
    const places = [
      "Eastwatch",
      "Saltmere",
      "Harrowgate",
      "Brightwater",
      "Ironford",
      "Duskvale",
      "Kestrel Bay",
    ];
    const facts = places.map((p, i) => `Captain Orrin hid crate number ${i + 1} of silver in ${p}.`);
    const chat = await oldChat(h, sam, chatLines(facts));
    const written = nextWritten(h, chat);
    expect(await backfill(depsOf(h))).toBeGreaterThan(0);
    await written;
    const contents = (await listMemories(h.database.db, chat)).map((m) => m.content);
    for (const p of places) expect(contents.some((c) => c.includes(p))).toBe(true);
    const last = await h.database.db.execute<{ seq: number | string }>(
      sql`select max(seq) as seq from messages where conversation_id = ${chat}`,
    );
    expect((await progressOf(h.database.db, chat)).throughSeq).toBe(Number(last.rows[0]?.seq));
  });
});

describe("automatic memory on the Redis queue", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await hearthFor("postgres", true);
  });
  afterAll(async () => {
    await h.stop();
  });

  it("runs the same conversation's job again after the first finished (BullMQ forgets finished job ids)", async () => {
    const sam = await personAs(h, "basic", "Sam");
    const chat = await oldChat(h, sam, chatLines(FACTS));
    const first = nextWritten(h, chat);
    await queueAutoMemory(depsOf(h), chat);
    const event = await first;
    const more = [
      "Lena sold the Gray Heron's anchor in Brightwater.",
      "Orrin owes Lena forty crowns from Ironford.",
    ];
    const db = h.database.db;
    for (const content of chatLines([...more, FACTS[2] as string].map((f) => f.replace("We", "They")))) {
      await db.insert(messages).values({
        id: randomUUID(),
        conversationId: chat,
        role: content.startsWith("*") ? "bot" : "user",
        content,
        alternatives: [content],
      });
    }
    const second = nextWritten(h, chat, event.id);
    await queueAutoMemory(depsOf(h), chat);
    await second;
    const contents = (await listMemories(db, chat)).map((m) => m.content);
    expect(contents.some((c) => c.includes("Brightwater"))).toBe(true);
  });
});

describe.each([
  ["the partner edition", { HEARTH_EDITION: "partner" }],
  ["a flagged build", { HEARTH_MEMORY_MANAGER: "false" }],
])("memory management on %s", (_name, env) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ env: { ...env, LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("is hidden: the client is told, every memory route refuses a premium member, nothing is written", async () => {
    const a = api(h);
    const config = await h.app.inject({ method: "GET", url: "/api/config" });
    expect(config.json()).toMatchObject({ memory_manager: false });
    const sam = await personAs(h, "premium", "Sam");
    const chat = await oldChat(h, sam, chatLines(FACTS));
    for (const res of [
      await a.get(`/api/conversations/${chat}/memories`, sam),
      await a.post(`/api/conversations/${chat}/memories`, { content: "Sam likes tea." }, sam),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ error_type: "memories_not_allowed" });
    }
    expect(await runAutoMemory(depsOf(h), chat)).toBe(0);
    expect(await listMemories(h.database.db, chat)).toEqual([]);
  });
});

import { randomUUID } from "node:crypto";
import {
  type ApiError,
  type ConversationCreated,
  MEMORIES_PER_CONVERSATION_MAX,
  type Memory,
  type MemoryList,
  type MessagePage,
  type PromptReport,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { insertMemory, listMemories, rankMemories } from "./queries.ts";
import { memories } from "./schema.ts";

const harborLore = {
  name: "Harbor lore",
  entries: [
    {
      name: "Lighthouse",
      keys: ["lighthouse"],
      content: "The lighthouse keeper is Mira's brother, Tomas.",
      enabled: true,
      position: "before_char",
    },
    { keys: ["dragon"], content: "Dragons sleep under the northern hills.", enabled: true },
  ],
};

/** Manage Memories' API, its policy for every role, clones, and memories and lore in the prompt report. */
describe.each(drivers)("memories on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let owner: Person;
  let base: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });
    a = api(h);
    base = await h.listen();
    owner = await personAs(h, "minimal", "Sam");
  });
  afterAll(async () => {
    await h.stop();
  });

  /** A chat with a new character each time (opening a chat again before writing in it reuses the first). */
  const newChat = async (who: Person, over: Parameters<typeof insertTestCharacter>[2] = {}) => {
    const character = await insertTestCharacter(h.database.db, owner.id as string, {
      characterBook: harborLore,
      ...over,
    });
    const res = await a.post("/api/conversations", { character_id: character.id }, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ConversationCreated>().conversation.id;
  };
  const add = async (who: Person, conversationId: string, content: string, pinned = false) => {
    const res = await a.post(`/api/conversations/${conversationId}/memories`, { content, pinned }, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Memory>();
  };
  const list = async (who: Person, conversationId: string) => {
    const res = await a.get(`/api/conversations/${conversationId}/memories`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<MemoryList>();
  };

  describe("who may manage memories", () => {
    const refused: [Role, number, string, string | undefined][] = [
      ["signed out", 401, "unauthorized", undefined],
      ["guest", 403, "forbidden", "memories_not_allowed"],
      ["free", 403, "forbidden", "memories_not_allowed"],
      ["limited", 403, "forbidden", "memories_not_allowed"],
      ["restricted", 403, "restricted", undefined],
    ];
    it.each(refused)("%s is refused every memory route (%i %s)", async (role, status, code, errorType) => {
      const who = await personAs(h, role);
      const someId = randomUUID();
      for (const res of [
        await a.get(`/api/conversations/${someId}/memories`, who),
        await a.post(`/api/conversations/${someId}/memories`, { content: "x" }, who),
        await a.patch(`/api/memories/${someId}`, { pinned: true }, who),
        await a.delete(`/api/memories/${someId}`, who),
      ]) {
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json<ApiError & { error_type?: string }>()).toMatchObject({
          code,
          ...(errorType ? { error_type: errorType } : {}),
        });
      }
    });

    it.each([
      ["minimal", 256, false],
      ["basic", 512, true],
      ["premium", 768, true],
      ["admin", 768, true],
    ] as const)("%s manages memories (budget %i tokens, automatic: %s)", async (role, budget, automatic) => {
      const who = await personAs(h, role);
      const chat = await newChat(who);
      const created = await add(who, chat, "  Sam is afraid of deep water.  ");
      expect(created).toMatchObject({
        content: "Sam is afraid of deep water.",
        source: "manual",
        pinned: false,
      });
      const listed = await list(who, chat);
      expect(listed).toMatchObject({
        budget_tokens: budget,
        automatic,
        max_memories: MEMORIES_PER_CONVERSATION_MAX,
      });
      expect(listed.memories.map((m) => m.id)).toEqual([created.id]);
    });

    it("never shows or changes another user's memories: 404 as for a missing one", async () => {
      const chat = await newChat(owner);
      const mine = await add(owner, chat, "Sam keeps a brass compass.");
      const other = await personAs(h, "premium", "Eve");
      for (const res of [
        await a.get(`/api/conversations/${chat}/memories`, other),
        await a.post(`/api/conversations/${chat}/memories`, { content: "Eve was here." }, other),
        await a.patch(`/api/memories/${mine.id}`, { content: "Changed" }, other),
        await a.delete(`/api/memories/${mine.id}`, other),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
      }
      expect((await list(owner, chat)).memories).toMatchObject([
        { id: mine.id, content: "Sam keeps a brass compass." },
      ]);
    });
  });

  it("adds, lists pinned first then newest, pins, edits and deletes", async () => {
    const chat = await newChat(owner);
    const first = await add(owner, chat, "Sam's sister is called Ada.");
    const second = await add(owner, chat, "Sam owes Mira three silver coins.");
    const pinned = await add(owner, chat, "Sam is a cartographer.", true);
    expect((await list(owner, chat)).memories.map((m) => m.id)).toEqual([pinned.id, second.id, first.id]);

    const pin = await a.patch(`/api/memories/${first.id}`, { pinned: true }, owner);
    expect(pin.json<Memory>()).toMatchObject({ pinned: true, content: "Sam's sister is called Ada." });
    const edit = await a.patch(
      `/api/memories/${second.id}`,
      { content: "Sam owes Mira five silver coins." },
      owner,
    );
    expect(edit.statusCode).toBe(200);
    expect(edit.json<Memory>().content).toBe("Sam owes Mira five silver coins.");
    expect(
      (await list(owner, chat)).memories
        .slice(0, 2)
        .map((m) => m.id)
        .sort(),
    ).toEqual([pinned.id, first.id].sort());

    expect((await a.delete(`/api/memories/${second.id}`, owner)).statusCode).toBe(204);
    expect((await a.delete(`/api/memories/${second.id}`, owner)).statusCode).toBe(404);
    expect((await list(owner, chat)).memories.map((m) => m.id)).not.toContain(second.id);
  });

  it("refuses empty, over-long and empty-change bodies with 400, and the 501st memory with 403", async () => {
    const chat = await newChat(owner);
    for (const body of [{ content: "   " }, { content: "x".repeat(251) }, {}, { content: 5 }]) {
      const res = await a.post(`/api/conversations/${chat}/memories`, body, owner);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<ApiError>().code).toBe("invalidRequest");
    }
    expect(
      (await a.post(`/api/conversations/${chat}/memories`, { content: "x".repeat(250) }, owner)).statusCode,
    ).toBe(201);
    const one = (await list(owner, chat)).memories[0] as Memory;
    expect((await a.patch(`/api/memories/${one.id}`, {}, owner)).statusCode).toBe(400);
    expect((await a.patch(`/api/memories/not-a-uuid`, { pinned: true }, owner)).statusCode).toBe(400);

    await h.database.db.insert(memories).values(
      Array.from({ length: MEMORIES_PER_CONVERSATION_MAX - 1 }, (_, i) => ({
        conversationId: chat,
        content: `Fact number ${i}.`,
      })),
    );
    const over = await a.post(`/api/conversations/${chat}/memories`, { content: "One more." }, owner);
    expect(over.statusCode).toBe(403);
    expect(over.json<ApiError & { error_type?: string }>()).toMatchObject({
      code: "limitReached",
      error_type: "memory_limit_reached",
    });
  });

  it("an edited automatic memory becomes the user's own", async () => {
    const chat = await newChat(owner);
    const auto = await insertMemory(h.database.db, {
      conversationId: chat,
      content: "Mira lent Sam a lantern.",
      pinned: false,
      source: "auto",
      messageIds: ["m1"],
    });
    const pinned = await a.patch(`/api/memories/${auto.id}`, { pinned: true }, owner);
    expect(pinned.json<Memory>()).toMatchObject({ source: "auto", message_ids: ["m1"] });
    const edited = await a.patch(`/api/memories/${auto.id}`, { content: "Mira gave Sam a lantern." }, owner);
    expect(edited.json<Memory>()).toMatchObject({ source: "manual", message_ids: [], pinned: true });
  });

  it("a clone keeps manual memories, and automatic ones only when it keeps all their messages", async () => {
    const chat = await newChat(owner);
    const page = (await a.get(`/api/conversations/${chat}/messages`, owner)).json<MessagePage>();
    const greeting = page.messages[0]?.id as string;
    await add(owner, chat, "Sam hates the rain.", true);
    await insertMemory(h.database.db, {
      conversationId: chat,
      content: "Mira greeted Sam at dusk.",
      pinned: false,
      source: "auto",
      messageIds: [greeting],
    });
    await insertMemory(h.database.db, {
      conversationId: chat,
      content: "Something from a message the clone leaves out.",
      pinned: false,
      source: "auto",
      messageIds: [greeting, randomUUID()],
    });
    const res = await a.post(`/api/conversations/${chat}/clone`, { label: "Copy", mode: "full" }, owner);
    expect(res.statusCode, res.body).toBe(201);
    const cloneId = res.json<{ conversation: { id: string } }>().conversation.id;
    const copied = await listMemories(h.database.db, cloneId);
    expect(copied.map((m) => m.content).sort()).toEqual(["Mira greeted Sam at dusk.", "Sam hates the rain."]);
    const clonePage = (await a.get(`/api/conversations/${cloneId}/messages`, owner)).json<MessagePage>();
    // The automatic memory now names the clone's own copy of its message.
    expect(copied.find((m) => m.source === "auto")?.messageIds).toEqual([clonePage.messages[0]?.id]);
  });

  it("puts pinned and relevant memories and the activated lore in the reply's prompt, and reports them to the writer only", async () => {
    // Premium, so the reply's length can be set (the shortest allowed keeps the test quick).
    const writer = await personAs(h, "premium", "Sam");
    // A bot that shares its definition: the report names its lore entries (hidden ones are not).
    const chat = await newChat(writer, { definitionVisible: true });
    const pinned = await add(writer, chat, "Sam is a cartographer.", true);
    const relevant = await add(writer, chat, "Sam once saw the lighthouse burn.");
    const res0 = await fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: writer.cookie as string, "content-type": "application/json" },
      body: JSON.stringify({
        type: "text",
        conversation_id: chat,
        action: "send",
        content: "Tell me about the lighthouse.",
        settings: { max_new_tokens: 180, temperature: 0, top_k: 1 },
      }),
    });
    expect(res0.status, res0.status === 200 ? "" : await res0.clone().text()).toBe(200);
    const events = await readSse(res0);
    const done = events.map((m) => m.event).find((e) => e.type === "done");
    const replyId = done && done.type === "done" ? (done.message?.id as string) : "";
    expect(replyId, JSON.stringify(events.map((m) => m.event))).not.toBe("");

    const res = await a.get(`/api/messages/${replyId}/prompt`, writer);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<PromptReport>();
    expect(report.memories.map((m) => m.id)).toEqual([pinned.id, relevant.id]);
    expect(report.lore).toEqual([
      expect.objectContaining({ name: "Lighthouse", position: "before_char", reason: "lighthouse" }),
    ]);
    expect(report).toMatchObject({ message_id: replyId, persona_name: "Sam", history_left_out: 0 });
    expect(report.history_messages).toBe(2);
    expect(report.prompt_tokens).toBeGreaterThan(0);

    const other = await personAs(h, "premium", "Eve");
    expect((await a.get(`/api/messages/${replyId}/prompt`, other)).statusCode).toBe(404);
    expect((await a.get(`/api/messages/${randomUUID()}/prompt`, writer)).statusCode).toBe(404);
  });

  it("ranks unpinned memories by keywords fused with recency, pinned ones always first", async () => {
    const chat = await newChat(owner);
    await add(owner, chat, "Sam grew up on a goat farm.");
    await add(owner, chat, "Mira's favourite tea is jasmine.", true);
    for (let i = 0; i < 30; i++) await add(owner, chat, `Sam counted ${i} gulls on the pier.`);
    const ranked = await rankMemories(h.database.db, chat, "Do you remember the goats from your farm?");
    expect(ranked[0]).toMatchObject({ content: "Mira's favourite tea is jasmine.", pinned: true });
    // Stemmed keywords find the oldest memory ahead of thirty newer ones.
    expect(ranked[1]?.content).toBe("Sam grew up on a goat farm.");
    // No keyword at all: recency alone, newest first.
    const plain = await rankMemories(h.database.db, chat, "... !!");
    expect(plain[1]?.content).toBe("Sam counted 29 gulls on the pier.");
  });

  describe("automatic memories follow their messages", () => {
    /** A chat whose greeting has an automatic memory, and a manual memory beside it. */
    const chatWithAutoMemory = async (who: Person) => {
      const chat = await newChat(who);
      const greeting = (await a.get(`/api/conversations/${chat}/messages`, who)).json<MessagePage>()
        .messages[0] as MessagePage["messages"][number];
      await insertMemory(h.database.db, {
        conversationId: chat,
        content: "Mira greeted Sam with a map in hand.",
        pinned: true,
        source: "auto",
        messageIds: [greeting.id],
      });
      await add(who, chat, "Sam prefers tea.");
      const contents = async () => (await listMemories(h.database.db, chat)).map((m) => m.content);
      expect(await contents()).toHaveLength(2);
      return { chat, greeting, contents };
    };

    it("an edit of the message drops them; the user's own memories stay", async () => {
      const { greeting, contents } = await chatWithAutoMemory(owner);
      const res = await a.patch(`/api/messages/${greeting.id}`, { content: "*waves* Hello." }, owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(await contents()).toEqual(["Sam prefers tea."]);
    });

    it("removing the message (and what follows) drops them", async () => {
      const { chat, greeting, contents } = await chatWithAutoMemory(owner);
      const res = await a.delete(`/api/conversations/${chat}/messages?from=${greeting.id}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(await contents()).toEqual(["Sam prefers tea."]);
    });

    it("showing another alternative drops them: alternatives not selected never feed memory", async () => {
      const { greeting, contents } = await chatWithAutoMemory(owner);
      expect(greeting.alternative_count).toBeGreaterThan(1);
      const res = await a.put(`/api/messages/${greeting.id}/alternative`, { alternative_index: 1 }, owner);
      expect(res.statusCode, res.body).toBe(200);
      expect(await contents()).toEqual(["Sam prefers tea."]);
    });

    it("a regenerate replaces what the old alternative produced", async () => {
      const writer = await personAs(h, "premium", "Sam");
      const { chat, greeting, contents } = await chatWithAutoMemory(writer);
      const res = await fetch(`${base}/api/generate`, {
        method: "POST",
        headers: { cookie: writer.cookie as string, "content-type": "application/json" },
        body: JSON.stringify({
          type: "text",
          conversation_id: chat,
          action: "regenerate",
          message_id: greeting.id,
          settings: { max_new_tokens: 180, temperature: 0, top_k: 1 },
        }),
      });
      expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
      await readSse(res);
      expect(await contents()).toEqual(["Sam prefers tea."]);
    });

    it("deleting the conversation deletes its memories", async () => {
      const { chat } = await chatWithAutoMemory(owner);
      expect((await a.delete(`/api/conversations/${chat}`, owner)).statusCode).toBe(204);
      expect(await listMemories(h.database.db, chat)).toEqual([]);
    });
  });
});

import { randomBytes, randomUUID } from "node:crypto";
import type { GenerationEvent } from "@hearth/contract";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestMember } from "../../../../test/chat.ts";
import {
  createTestDatabase,
  drivers,
  TEST_REDIS_URL,
  type TestDatabase,
} from "../../../../test/databases.ts";
import { MemoryEventBus } from "../../../adapters/memory-bus.ts";
import { RedisEventBus } from "../../../adapters/redis-bus.ts";
import type { Db } from "../../../db/client.ts";
import type { EventBus } from "../../../ports/bus.ts";
import { conversations, generations, messages } from "../schema.ts";
import { recoverOrphans } from "./recovery.ts";
import { StreamingTextWriter, textChange } from "./reply-writer.ts";
import { eventStream } from "./streams.ts";

/**
 * Decision 015 on both databases: the coalesced writer stores each streaming reply's latest text
 * (nothing lost, nothing doubled, never over a finished reply), and recovery gives a cut-off reply
 * what its clients saw from the bus stream, on the in-process bus and on real Redis.
 */
describe.each(drivers)("streaming replies' text on %s", (driver) => {
  let t: TestDatabase;
  let db: Db;
  let userId: string;
  let characterId: string;

  beforeAll(async () => {
    t = await createTestDatabase(driver);
    db = t.database.db;
    ({ userId, characterId } = await insertTestMember(db));
  });
  afterAll(async () => t.drop());

  /** A conversation with a streaming reply row holding `content`. */
  async function reply(content = ""): Promise<{ conversationId: string; messageId: string }> {
    const conversationId = randomUUID();
    await db.insert(conversations).values({ id: conversationId, userId, characterId });
    const messageId = randomUUID();
    await db.insert(messages).values({
      id: messageId,
      conversationId,
      role: "bot",
      content,
      state: "streaming",
      alternatives: [content],
    });
    return { conversationId, messageId };
  }
  const contentOf = async (ids: string[]) =>
    new Map(
      (
        await db
          .select({ id: messages.id, content: messages.content })
          .from(messages)
          .where(inArray(messages.id, ids))
      ).map((r) => [r.id, r.content]),
    );

  it("writes a large batch in statements of 50 rows, the event loop turning between them", async () => {
    const writer = new StreamingTextWriter(db, 60_000);
    const rows = await Promise.all(Array.from({ length: 120 }, () => reply()));
    for (const [i, r] of rows.entries()) writer.set(r.messageId, `reply ${i} ü`);
    // The embedded database runs each statement on this thread: a callback queued now runs only
    // if the loop turns before the whole batch is written.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    let turnedBeforeEnd = false;
    await writer.flush().then(() => {
      turnedBeforeEnd = turned;
    });
    const stored = await contentOf(rows.map((r) => r.messageId));
    for (const [i, r] of rows.entries()) expect(stored.get(r.messageId)).toBe(`reply ${i} ü`);
    expect(turnedBeforeEnd).toBe(true);
  });

  it("stores every reply's latest text in batches, with quotes, newlines and non-ASCII intact", async () => {
    const writer = new StreamingTextWriter(db, 20);
    const rows = await Promise.all(Array.from({ length: 30 }, () => reply()));
    const expected = new Map<string, string>();
    // Tokens interleave across replies and across batches, as 30 streams do.
    for (let step = 0; step < 40; step++) {
      for (const [i, r] of rows.entries()) {
        if ((step + i) % 3 === 0) continue;
        const text = `${expected.get(r.messageId) ?? ""} t${step}'"\n✓${i}`;
        expected.set(r.messageId, text);
        writer.set(r.messageId, text);
      }
      if (step % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await writer.flush();
    const stored = await contentOf(rows.map((r) => r.messageId));
    for (const r of rows) expect(stored.get(r.messageId)).toBe(expected.get(r.messageId) ?? "");
  });

  it("sends only the text after the last write, keeping characters beyond the BMP whole", async () => {
    const writer = new StreamingTextWriter(db, 60_000);
    const { messageId } = await reply();
    const steps = [
      "héllo 👋",
      "héllo 👋 wörld 🌍",
      // A token that ends inside a surrogate pair: the row holds a replacement until the rest comes.
      "héllo 👋 wörld 🌍 a\uD83D",
      "héllo 👋 wörld 🌍 a\uD83D\uDE00 done",
    ];
    for (const text of steps) {
      writer.set(messageId, text);
      await writer.flush();
    }
    expect((await contentOf([messageId])).get(messageId)).toBe("héllo 👋 wörld 🌍 a😀 done");
    // A text that does not extend the stored one (a reply sampled again) is written whole.
    writer.set(messageId, "again");
    await writer.flush();
    expect((await contentOf([messageId])).get(messageId)).toBe("again");
  });

  it("writes everything after the last good write once a failed batch is retried", async () => {
    const writer = new StreamingTextWriter(db, 60_000);
    const { messageId } = await reply();
    writer.set(messageId, "one ");
    await writer.flush();
    const execute = db.execute.bind(db);
    db.execute = (() => Promise.reject(new Error("connection lost"))) as unknown as typeof db.execute;
    writer.set(messageId, "one two ");
    await expect(writer.flush()).rejects.toThrow("connection lost");
    db.execute = execute;
    writer.set(messageId, "one two three");
    await writer.flush();
    expect((await contentOf([messageId])).get(messageId)).toBe("one two three");
  });

  it("never writes a batch over a reply's final text", async () => {
    const writer = new StreamingTextWriter(db, 5);
    const { messageId } = await reply();
    for (let i = 0; i < 50; i++) {
      writer.set(messageId, `partial ${i}`);
      if (i === 25) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The worker's end: forget (waits out a batch in flight), then the final write.
    await writer.forget(messageId);
    await db.update(messages).set({ content: "final", state: "complete" }).where(eq(messages.id, messageId));
    writer.set(messageId, "late batch");
    await writer.flush();
    expect((await contentOf([messageId])).get(messageId)).toBe("final");
  });

  const buses: Record<string, () => EventBus> = {
    "in-process": () => new MemoryEventBus(),
    redis: () => new RedisEventBus(TEST_REDIS_URL, `hearth-test-${randomBytes(4).toString("hex")}`),
  };
  describe.each(Object.keys(buses))("recovery from the %s bus", (kind) => {
    let bus: EventBus;
    beforeAll(() => {
      bus = (buses[kind] as () => EventBus)();
    });
    afterAll(async () => bus.close());

    /** A running generation whose worker died: stored text, and the events its clients got. */
    async function orphan(
      stored: string,
      base: string,
      tokens: string[],
      action: "send" | "continue" = "send",
    ) {
      const { conversationId, messageId } = await reply(stored);
      const id = randomUUID();
      await db.insert(generations).values({
        id,
        conversationId,
        userId,
        action,
        status: "running",
        messageId,
        heartbeatAt: new Date(Date.now() - 120_000),
      });
      await db
        .update(conversations)
        .set({ activeGenerationId: id })
        .where(eq(conversations.id, conversationId));
      const started: GenerationEvent = {
        type: "started",
        generation_id: id,
        user_message: null,
        message_id: messageId,
        action,
        base_content: base,
      };
      await bus.append(eventStream(id), started);
      for (const text of tokens)
        await bus.append(eventStream(id), { type: "token", text } satisfies GenerationEvent);
      return { id, messageId };
    }
    const recover = () => recoverOrphans(db, bus, { all: false, staleMs: 60_000 });
    const stateOf = async (messageId: string) =>
      (await db.select().from(messages).where(eq(messages.id, messageId)))[0];

    it("gives a cut-off reply every token its clients saw, once", async () => {
      const behind = await orphan("Once upon", "", ["Once", " upon", " a", " time"]);
      const even = await orphan("Once upon a time", "", ["Once", " upon", " a", " time"]);
      const continued = await orphan(
        "Earlier text. And",
        "Earlier text.",
        [" And", " then", " more"],
        "continue",
      );
      expect(await recover()).toBeGreaterThanOrEqual(3);
      expect(await stateOf(behind.messageId)).toMatchObject({
        content: "Once upon a time",
        state: "interrupted",
      });
      expect(await stateOf(even.messageId)).toMatchObject({
        content: "Once upon a time",
        state: "interrupted",
      });
      expect(await stateOf(continued.messageId)).toMatchObject({
        content: "Earlier text. And then more",
        state: "interrupted",
        alternatives: ["Earlier text. And then more"],
      });
      // The clients waiting are told it ended, with the rebuilt text.
      const events = await bus.range<GenerationEvent>(eventStream(behind.id));
      const done = events.at(-1)?.data;
      expect(done?.type === "done" && done.message?.content).toBe("Once upon a time");
    });

    it("keeps the stored text when the stream does not extend it", async () => {
      // Edited meanwhile (stored text is not where the stream starts), or the stream's start is gone.
      const edited = await orphan("Something else entirely", "", ["Once", " upon"]);
      const { conversationId, messageId } = await reply("Kept as stored");
      const id = randomUUID();
      await db.insert(generations).values({
        id,
        conversationId,
        userId,
        action: "send",
        status: "running",
        messageId,
        heartbeatAt: new Date(Date.now() - 120_000),
      });
      await bus.append(eventStream(id), { type: "token", text: " and more" } satisfies GenerationEvent);
      await recover();
      expect((await stateOf(edited.messageId))?.content).toBe("Something else entirely");
      expect(await stateOf(messageId)).toMatchObject({ content: "Kept as stored", state: "interrupted" });
    });
  });
});

describe("a streaming reply's text change", () => {
  it("is the new text only when the text extends what the row holds, with lengths in characters", () => {
    const first = textChange("m", "a😀b", undefined);
    expect(first).toMatchObject({ keep: 0, tail: "a😀b", after: { text: "a😀b", chars: 3 } });
    const next = textChange("m", "a😀bc🌍", first.after);
    expect(next).toMatchObject({ keep: 3, tail: "c🌍", after: { text: "a😀bc🌍", chars: 5 } });
    expect(textChange("m", "zz", next.after)).toMatchObject({ keep: 0, tail: "zz", after: { chars: 2 } });
    // Ends inside a pair: known only up to before the high surrogate.
    expect(textChange("m", "x\uD83D", undefined).after).toEqual({ text: "x", chars: 1 });
  });
});

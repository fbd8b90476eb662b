import { randomUUID } from "node:crypto";
import { ServerResponse } from "node:http";
import type { PromptReport } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, openTestChat, readSse } from "../../../../test/chat.ts";
import { gatedServer } from "../../../../test/gated-openai-server.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { watchStatements } from "../../../../test/statements.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import { personAs } from "../../characters/test-support.ts";
import { conversations, messages } from "../schema.ts";
import { GENERATE_JOB } from "./service.ts";

/**
 * A process that runs replies wakes its own line as it accepts a message. The queue's wake-up,
 * for the other processes, goes out only for a reply this process did not take (here: the
 * model's one slot is busy), and it does not hold up the answer: with that wake-up stuck (a
 * Redis that never answers it), the send is still answered and the reply still streams.
 */
describe.each(["pglite", "postgres"] as const)("waking the line (%s)", (driver) => {
  let h: TestHearth;
  let base: string;
  let model: Awaited<ReturnType<typeof gatedServer>>;
  const stuck: string[] = [];

  beforeAll(async () => {
    model = await gatedServer();
    h = await startTestHearth({
      driver,
      redis: driver === "postgres",
      env: { LLM_BASE_URL: model.url, LLM_MODEL: "gated", LLM_SEQUENCES: "1" },
    });
    // The generation wake-up never resolves; every other job goes through as before.
    const enqueue = h.queue.enqueue.bind(h.queue);
    (h.queue as JobQueue).enqueue = (name, data, opts) => {
      if (name !== GENERATE_JOB) return enqueue(name, data, opts);
      stuck.push((data as { generationId: string }).generationId);
      return new Promise<string>(() => {});
    };
    base = await h.listen();
  });
  afterAll(async () => {
    model.release();
    await h.stop();
    model.close();
  });

  async function chatOf(name: string) {
    const user = await h.signUp({ name });
    const character = await insertTestCharacter(h.database.db, user.id);
    return { send: await openTestChat(base, user.cookie, character.id) };
  }
  /** The statements matching `which` that the database is sent while `run` runs (and its result). */
  async function statementsWhile<T>(which: (text: string) => boolean, run: () => Promise<T>) {
    const watch = watchStatements(h.database.db, which);
    try {
      return { seen: watch.seen, result: await run() };
    } finally {
      watch.stop();
    }
  }

  it("takes its own reply without the queue's wake-up, and wakes the others for one it cannot take", async () => {
    const first = await chatOf("Wake");
    const firstRes = await first.send("Are you there?");
    expect(firstRes.status).toBe(200);
    // The one slot is this process's: the reply reached the model with no wake-up sent.
    await model.received(1);
    expect(stuck).toEqual([]);

    // The slot is busy: the second reply waits in line, and the other processes are woken for it.
    const second = await chatOf("Later");
    const secondRes = await second.send("And me?");
    expect(secondRes.status).toBe(200);
    await expect.poll(() => stuck.length).toBe(1);

    // Both still stream here: the first's end frees the slot and this process takes the second.
    model.release();
    const firstEvents = await readSse(firstRes, (m) => m.event.type === "done");
    const done = firstEvents.at(-1)?.event;
    if (done?.type !== "done") throw new Error("no done");
    expect(done.message?.content).toBe("One moment, done.");
    await model.received(2);
    model.release();
    const secondEvents = await readSse(secondRes, (m) => m.event.type === "done");
    const started = secondEvents.find((m) => m.event.type === "started")?.event;
    if (started?.type !== "started") throw new Error("no started");
    expect(secondEvents.at(-1)?.event.type).toBe("done");
    // The one wake-up sent was the second reply's.
    expect(stuck).toEqual([started.generation_id]);
  });

  it("writes `started` to the client before its line claims the reply", async () => {
    // Watched from the send on (the end of the last test's reply makes a claim pass of its own).
    const chat = await chatOf("Order");
    const asked = model.answering.length;
    // In call order: the response's write that carries `started`, and each claim statement.
    const order: string[] = [];
    const db = h.database.db;
    const execute = db.execute.bind(db);
    const write = ServerResponse.prototype.write;
    db.execute = ((query: Parameters<typeof execute>[0]) => {
      const chunks = (query as unknown as { queryChunks?: { value?: unknown }[] }).queryChunks ?? [];
      const text = chunks.map((c) => (Array.isArray(c?.value) ? c.value.join("") : "")).join("");
      if (text.includes("hearth_claim_generations")) order.push("claim");
      return execute(query);
    }) as typeof db.execute;
    ServerResponse.prototype.write = function (this: ServerResponse, ...args: Parameters<typeof write>) {
      if (String(args[0]).includes('"type":"started"')) order.push("started");
      return write.apply(this, args);
    } as typeof write;
    try {
      const res = await chat.send("First things first");
      expect(res.status).toBe(200);
      await model.received(asked + 1);
      expect(order.slice(0, 2)).toEqual(["started", "claim"]);
      model.release();
      const events = await readSse(res, (m) => m.event.type === "done");
      expect(events.at(-1)?.event.type).toBe("done");
    } finally {
      db.execute = execute;
      ServerResponse.prototype.write = write;
    }
  });

  it("hands what the accept read to the worker that takes the reply at once, as the store left it", async () => {
    const user = await h.signUp({ name: "Handoff" });
    const character = await insertTestCharacter(h.database.db, user.id);
    const send = await openTestChat(base, user.cookie, character.id);
    // A history longer than the model's window, so the prompt leaves the oldest messages out.
    const db = h.database.db;
    const earlier = 40;
    for (let i = 0; i < earlier; i++) {
      const content = `${i % 2 ? "The road went on" : "We walked"} ${"and on, ".repeat(120)}(${i})`;
      await db.insert(messages).values({
        id: randomUUID(),
        conversationId: send.conversationId,
        role: i % 2 ? "bot" : "user",
        content,
        alternatives: [content],
      });
    }
    const [before] = await db
      .select({ n: conversations.messageCount })
      .from(conversations)
      .where(eq(conversations.id, send.conversationId));
    const stored = (before?.n ?? 0) + earlier;
    await db
      .update(conversations)
      .set({ messageCount: stored })
      .where(eq(conversations.id, send.conversationId));
    // Sent, then regenerated: each reads the context once, in the accept.
    const turns = [
      () => send("Where does it end?"),
      () =>
        fetch(`${base}/api/generate`, {
          method: "POST",
          headers: { cookie: user.cookie, "content-type": "application/json" },
          body: JSON.stringify({ type: "text", conversation_id: send.conversationId, action: "regenerate" }),
        }),
    ];
    for (const turn of turns) {
      const asked = model.answering.length;
      // The accept's context statement (its persona subquery is its own).
      const contextReads = await statementsWhile(
        (text) => text.includes("json_build_object('id'"),
        async () => {
          const res = await turn();
          expect(res.status).toBe(200);
          await model.received(asked + 1);
          return res;
        },
      );
      // Read by the accept only: the worker took it from the accept.
      expect(contextReads.seen).toHaveLength(1);
      model.release();
      const events = await readSse(contextReads.result, (m) => m.event.type === "done");
      const done = events.at(-1)?.event;
      if (done?.type !== "done" || !done.message) throw new Error("no done");
      const report = (await (
        await fetch(`${base}/api/messages/${done.message.id}/prompt`, { headers: { cookie: user.cookie } })
      ).json()) as PromptReport;
      // Every message before the reply is either in the prompt or counted as left out: the count
      // handed over includes the two messages the send stored (a regenerate adds none).
      expect(report.history_left_out).toBeGreaterThan(0);
      expect(report.history_left_out + report.history_messages).toBe(stored + 1);
    }
  });

  it("reads no memories or attached books for a chat that has none (a member who could have both)", async () => {
    const writer = await personAs(h, "premium", "Reads");
    const character = await insertTestCharacter(h.database.db, writer.id as string);
    const send = await openTestChat(base, writer.cookie as string, character.id);
    const asked = model.answering.length;
    // The context's own exists() checks name both tables too; only the reads of their rows count.
    const reads = await statementsWhile(
      (text) =>
        !text.includes("json_build_object('id'") && /from "?(memories|conversation_lorebooks)"?\b/.test(text),
      async () => {
        const res = await send("Nothing to remember yet");
        expect(res.status).toBe(200);
        await model.received(asked + 1);
        return res;
      },
    );
    expect(reads.seen).toEqual([]);
    model.release();
    const events = await readSse(reads.result, (m) => m.event.type === "done");
    expect(events.at(-1)?.event.type).toBe("done");
  });
});

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ConversationCreated, GenerationEvent, MessagePage } from "@hearth/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse, type SseMessage, tokensOf } from "../../test/chat.ts";
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from "../../test/databases.ts";
import { gatedServer } from "../../test/gated-openai-server.ts";
import { type HearthProcess, QUIET_PROCESS_ENV, startHearthProcess } from "../../test/hearth-process.ts";

/**
 * Graceful drain (issue 18 item 4) with two `hearth start` processes on the machine's PostgreSQL
 * and Redis: the process told to stop finishes what it runs up to HEARTH_DRAIN_S while the other
 * takes the new messages, then closes what is left as interrupted with its text kept. The model
 * server holds each reply open after its first token until the test lets it end (no timing).
 */

/** The draining process's deadline: long enough for the steps between the signal and the release. */
const DRAIN_S = 20;

type Proc = HearthProcess;

describe("graceful drain with two processes on PostgreSQL and Redis", () => {
  let database: TestDatabase;
  let model: Awaited<ReturnType<typeof gatedServer>>;
  const procs: Proc[] = [];
  const shared = {
    REDIS_URL: TEST_REDIS_URL,
    HEARTH_REDIS_PREFIX: `drain2-${randomBytes(5).toString("hex")}`,
    // Sessions signed on one process are read by the other.
    HEARTH_SECRET: randomBytes(32).toString("hex"),
    ...QUIET_PROCESS_ENV,
    LLM_MODEL: "gated",
  };

  beforeAll(async () => {
    [database, model] = await Promise.all([createTestDatabase("postgres"), gatedServer()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    for (let i = 0; i < 8; i++) model?.release();
    model?.close();
    await database?.drop();
  }, 60_000);

  /** `hearth start` (both roles) on the shared database, once it answers its health check. */
  function start(name: string): Promise<Proc> {
    return startHearthProcess(procs, name, {
      ...shared,
      LLM_BASE_URL: model.url,
      HEARTH_DRAIN_S: String(DRAIN_S),
      DATABASE_URL: database.url ?? "",
    });
  }

  const call = (on: Proc, method: string, url: string, cookie: string, body?: unknown) =>
    fetch(`${on.url}${url}`, {
      method,
      headers: {
        cookie,
        origin: on.url,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const doneOf = (events: SseMessage[]) =>
    events
      .map((m) => m.event)
      .find((e): e is Extract<GenerationEvent, { type: "done" }> => e.type === "done");

  async function until(what: string, check: () => boolean, on: Proc, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen\n${on.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Which process took a conversation's reply: the worker id names its process id. */
  async function takenBy(conversationId: string): Promise<string | null> {
    const rows = await database.database.db.execute<{ worker_id: string | null }>(
      sql`SELECT worker_id FROM generations WHERE conversation_id = ${conversationId}`,
    );
    return rows.rows[0]?.worker_id ?? null;
  }
  const workerOf = (p: Proc) => `${hostname()}:${p.child.pid}:`;

  it("the stopped process finishes one reply, the other takes the new message, and what is left at HEARTH_DRAIN_S is closed as interrupted with its text", async () => {
    const a = await start("a");
    // A member runs one reply at a time: each reply here is a different member's.
    const member = async (on: Proc) => {
      const signUp = await call(on, "POST", "/api/auth/sign-up/email", "", {
        email: `drain2-${randomBytes(4).toString("hex")}@example.com`,
        password: "correct horse battery",
        name: "Sam",
      });
      expect(signUp.status, await signUp.clone().text()).toBe(200);
      const cookie = signUp.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
      // Their own bot: a chat with it passes the waiting room.
      return { cookie, characterId: (await insertTestCharacter(database.database.db, userId)).id };
    };
    type Member = Awaited<ReturnType<typeof member>>;
    const newChat = async (on: Proc, who: Member) => {
      const res = await call(on, "POST", "/api/conversations", who.cookie, { character_id: who.characterId });
      expect(res.status, on.output()).toBe(201);
      return ((await res.json()) as ConversationCreated).conversation.id;
    };
    const send = async (on: Proc, who: Member, conversationId: string, content: string) => {
      const res = await call(on, "POST", "/api/generate", who.cookie, {
        type: "text",
        conversation_id: conversationId,
        action: "send",
        content,
      });
      expect(res.status, on.output()).toBe(200);
      // Wrapped, so that awaiting the send does not wait for the whole stream.
      return { events: readSse(res) };
    };
    const stored = async (on: Proc, who: Member, conversationId: string) =>
      (
        (await (
          await call(on, "GET", `/api/conversations/${conversationId}/messages`, who.cookie)
        ).json()) as MessagePage
      ).messages.at(-1);

    // Two replies running on A (the only process yet), each held after its first token.
    const [sam, kim, lee] = [await member(a), await member(a), await member(a)];
    const [finishing, leftOver] = [await newChat(a, sam), await newChat(a, kim)];
    const { events: finishingEvents } = await send(a, sam, finishing, "The one that finishes.");
    const { events: leftOverEvents } = await send(a, kim, leftOver, "The one left over.");
    await model.received(2, 60_000);
    const b = await start("b");
    expect(await takenBy(finishing)).toMatch(workerOf(a));
    expect(await takenBy(leftOver)).toMatch(workerOf(a));

    a.child.kill("SIGTERM");
    await until("the drain's start", () => a.output().includes("draining"), a);

    // Meanwhile a new message, sent where a load balancer now sends it: B generates it.
    const meanwhile = await newChat(b, lee);
    const { events: meanwhileEvents } = await send(b, lee, meanwhile, "Sent meanwhile.");
    await model.received(3);
    expect(model.answering.slice(0, 3)).toEqual([
      "The one that finishes.",
      "The one left over.",
      "Sent meanwhile.",
    ]);
    expect(await takenBy(meanwhile)).toMatch(workerOf(b));
    expect(a.child.exitCode).toBeNull();

    // The first reply on A ends before the deadline: it finishes on its open stream, whole.
    model.release();
    const finished = await finishingEvents;
    expect(tokensOf(finished)).toBe("One moment, done.");
    expect(doneOf(finished)?.message).toMatchObject({ content: "One moment, done.", state: "complete" });

    // The other is never let go: at the deadline A closes it as interrupted, its text kept, and exits.
    const interrupted = await leftOverEvents;
    expect(doneOf(interrupted)?.message).toMatchObject({ content: "One moment", state: "interrupted" });
    expect(await a.exited, a.output()).toBe(0);
    expect(a.output()).toMatch(/"running":2,"interrupted":1[^\n]*"msg":"drained"/);

    // B's reply was never held up by A's drain; it ends when its turn at the gate comes.
    model.release(); // the interrupted reply's gate (its request is gone)
    model.release();
    const fromB = await meanwhileEvents;
    expect(doneOf(fromB)?.message).toMatchObject({ content: "One moment, done.", state: "complete" });

    // What A did is in the shared database, as B reads it.
    expect(await stored(b, sam, finishing)).toMatchObject({
      content: "One moment, done.",
      state: "complete",
    });
    expect(await stored(b, kim, leftOver)).toMatchObject({ content: "One moment", state: "interrupted" });
    expect(await stored(b, lee, meanwhile)).toMatchObject({
      content: "One moment, done.",
      state: "complete",
    });
  }, 300_000);
});

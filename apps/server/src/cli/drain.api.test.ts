import { randomBytes } from "node:crypto";
import type { Character, ConversationCreated, GenerationEvent } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSse, type SseMessage, tokensOf } from "../../test/chat.ts";
import { gatedServer } from "../../test/gated-openai-server.ts";
import { type HearthProcess, QUIET_PROCESS_ENV, startHearthProcess } from "../../test/hearth-process.ts";

/**
 * Graceful drain (issue 18 item 4) for real: a `hearth start` process on its embedded database,
 * answering through a model server the test holds open, gets SIGTERM with a reply in flight.
 */

type Proc = HearthProcess;

describe("graceful drain on SIGTERM", () => {
  let model: Awaited<ReturnType<typeof gatedServer>>;
  const procs: Proc[] = [];

  beforeAll(async () => {
    model = await gatedServer();
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    for (let i = 0; i < 8; i++) model.release();
    model.close();
  }, 60_000);

  function start(drainS: string, extra: Record<string, string> = {}, dir?: string): Promise<Proc> {
    const env = {
      HEARTH_DRAIN_S: drainS,
      HEARTH_SECRET: randomBytes(32).toString("hex"),
      ...QUIET_PROCESS_ENV,
      LLM_BASE_URL: model.url,
      LLM_MODEL: "gated",
      DATABASE_URL: "",
      REDIS_URL: "",
      ...extra,
    };
    return startHearthProcess(procs, "drain", env, dir);
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

  /** Signs up, makes a character and sends one message: answers the open event stream. */
  async function sendOne(on: Proc, content = "Tell me about the maps."): Promise<Response> {
    const signUp = await call(on, "POST", "/api/auth/sign-up/email", "", {
      email: `drain-${randomBytes(4).toString("hex")}@example.com`,
      password: "correct horse battery",
      name: "Sam",
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const made = await call(on, "POST", "/api/characters", cookie, { name: "Mira", greeting: "Hello." });
    expect(made.status, await made.clone().text()).toBe(201);
    const characterId = ((await made.json()) as Character).id;
    const chat = await call(on, "POST", "/api/conversations", cookie, { character_id: characterId });
    expect(chat.status).toBe(201);
    const conversationId = ((await chat.json()) as ConversationCreated).conversation.id;
    const res = await call(on, "POST", "/api/generate", cookie, {
      type: "text",
      conversation_id: conversationId,
      action: "send",
      content,
    });
    expect(res.status).toBe(200);
    return res;
  }

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

  it("lets a reply in flight finish on its open stream, takes no new connection, then exits 0", async () => {
    const p = await start("30");
    const before = model.answering.length;
    const events = readSse(await sendOne(p));
    await model.received(before + 1);

    p.child.kill("SIGTERM");
    await until("the drain's start", () => p.output().includes("draining"), p);
    // The listener is closed: a new connection is refused while the reply still runs.
    await expect(fetch(`${p.url}/api/health`, { signal: AbortSignal.timeout(5000) })).rejects.toThrow();
    expect(p.child.exitCode).toBeNull();

    model.release();
    const got = await events;
    expect(tokensOf(got)).toBe("One moment, done.");
    const done = doneOf(got);
    expect(done?.message).toMatchObject({ content: "One moment, done.", state: "complete" });
    expect(await p.exited, p.output()).toBe(0);
    expect(p.output()).toMatch(/"running":1,"interrupted":0[^\n]*"msg":"drained"/);
  }, 180_000);

  it("at HEARTH_DRAIN_S closes a reply still running as interrupted with its text kept, then exits 0", async () => {
    const p = await start("1");
    const before = model.answering.length;
    const events = readSse(await sendOne(p));
    await model.received(before + 1);

    const signalled = Date.now();
    p.child.kill("SIGTERM");
    // The gate is never released: the deadline ends the reply.
    const got = await events;
    expect(tokensOf(got)).toBe("One moment");
    const done = doneOf(got);
    // The `done` is rebuilt from the stored reply (recovery.ts's storedDone): the text is in the database.
    expect(done?.message).toMatchObject({ content: "One moment", state: "interrupted" });
    expect(await p.exited, p.output()).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(900);
    expect(p.output()).toMatch(/"running":1,"interrupted":1[^\n]*"msg":"drained"/);
  }, 180_000);

  it("a second SIGTERM during the drain closes the running reply as interrupted at once", async () => {
    const p = await start("60");
    const before = model.answering.length;
    const events = readSse(await sendOne(p));
    await model.received(before + 1);

    const signalled = Date.now();
    p.child.kill("SIGTERM");
    await until("the drain's start", () => p.output().includes("draining"), p);
    p.child.kill("SIGTERM");
    const got = await events;
    expect(doneOf(got)?.message).toMatchObject({ content: "One moment", state: "interrupted" });
    await p.exited;
    expect(Date.now() - signalled).toBeLessThan(30_000);
  }, 180_000);

  it("claims nothing while draining: a reply waiting in line stays there and runs after the restart", async () => {
    // One reply at a time: the second waits in the database's line behind the first.
    const one = { LLM_SEQUENCES: "1" };
    const p = await start("1", one);
    const before = model.answering.length;
    const first = readSse(await sendOne(p, "The first."));
    await model.received(before + 1);
    const second = readSse(await sendOne(p, "The second.")).catch(() => []);

    p.child.kill("SIGTERM");
    expect(doneOf(await first)?.message).toMatchObject({ content: "One moment", state: "interrupted" });
    expect(await p.exited, p.output()).toBe(0);
    await second;
    // The first reply's slot freed during the drain, yet the waiting one was not started here.
    expect(model.answering.slice(before)).toEqual(["The first."]);

    // Restarted on the same data directory, the process takes it from the line.
    await start("1", one, p.dataDir);
    await model.received(before + 2);
    expect(model.answering.slice(before)).toEqual(["The first.", "The second."]);
  }, 180_000);
});

import type { ConversationCreated } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../../test/chat.ts";
import { gatedServer } from "../../../../test/gated-openai-server.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import { GENERATE_JOB } from "./service.ts";

/**
 * A process that runs replies wakes its own line as it accepts a message, and the queue's
 * wake-up for the other processes does not hold up the answer: with that wake-up stuck
 * (a Redis that never answers it), the send is still answered and the reply still streams.
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
      env: { LLM_BASE_URL: model.url, LLM_MODEL: "gated" },
    });
    // The generation wake-up never resolves; every other job goes through as before.
    const enqueue = h.queue.enqueue.bind(h.queue);
    (h.queue as JobQueue).enqueue = (name, data, opts) => {
      if (name !== GENERATE_JOB) return enqueue(name, data, opts);
      stuck.push(name);
      return new Promise<string>(() => {});
    };
    base = await h.listen();
  });
  afterAll(async () => {
    model.release();
    await h.stop();
    model.close();
  });

  it("answers the send and streams the reply without the queue's wake-up", async () => {
    const user = await h.signUp({ name: "Wake" });
    const character = await insertTestCharacter(h.database.db, user.id);
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { cookie: user.cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const { conversation } = (await (
      await post("/api/conversations", { character_id: character.id })
    ).json()) as ConversationCreated;
    const res = await post("/api/generate", {
      type: "text",
      conversation_id: conversation.id,
      action: "send",
      content: "Are you there?",
    });
    expect(res.status).toBe(200);
    await model.received(1);
    model.release();
    const events = await readSse(res, (m) => m.event.type === "done");
    expect(stuck).toEqual([GENERATE_JOB]);
    expect(events.map((m) => m.event.type)).toContain("started");
    const done = events.at(-1)?.event;
    if (done?.type !== "done") throw new Error("no done");
    expect(done.message?.content).toBe("One moment, done.");
  });
});

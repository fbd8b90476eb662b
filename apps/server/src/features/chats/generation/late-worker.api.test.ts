import type { ConversationCreated, GenerationEvent } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../../test/chat.ts";
import { gatedServer } from "../../../../test/gated-openai-server.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { messages } from "../schema.ts";
import { finishGeneration, releaseConversation } from "./queries.ts";
import { eventStream } from "./streams.ts";

/**
 * A worker that upkeep took for dead (its heartbeat late, e.g. a stalled machine) but that lives
 * on: when it ends, its text is stored, yet it announces no second `done` on the stream.
 */
describe("a reply closed by upkeep while its worker still runs", () => {
  let h: TestHearth;
  let base: string;
  let model: Awaited<ReturnType<typeof gatedServer>>;

  beforeAll(async () => {
    model = await gatedServer();
    h = await startTestHearth({ env: { LLM_BASE_URL: model.url, LLM_MODEL: "gated" } });
    base = await h.listen();
  });
  afterAll(async () => {
    await h.stop();
    model.close();
  });

  it("stores the late text and publishes no second done", async () => {
    const user = await h.signUp({ name: "Late" });
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
      content: "Take your time",
    });
    const [queued] = await readSse(res, (m) => m.event.type === "queued");
    if (queued?.event.type !== "queued") throw new Error("the reply was not queued");
    const id = queued.event.generation_id;
    await model.received(1);
    // What upkeep does to a reply whose heartbeat stopped (recovery.ts), minus its own `done`.
    expect(await finishGeneration(h.database.db, id, "interrupted")).toBe(true);
    await releaseConversation(h.database.db, conversation.id, id);
    model.release();
    await expect
      .poll(
        async () =>
          (await h.database.db.select().from(messages).where(eq(messages.conversationId, conversation.id)))
            .map((m) => m.content)
            .join("|"),
        { timeout: 20_000 },
      )
      .toContain("One moment, done.");
    const events = await h.bus.range<GenerationEvent>(eventStream(id));
    expect(events.some((e) => e.data.type === "token")).toBe(true);
    expect(events.filter((e) => e.data.type === "done")).toHaveLength(0);
  });
});

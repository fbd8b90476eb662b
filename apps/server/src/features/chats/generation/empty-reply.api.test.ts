import type { ConversationCreated, GenerationEvent } from "@hearth/contract";
import { afterEach, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../../test/chat.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { startRecordingServer } from "../../../../test/recording-openai-server.ts";

// A small model sometimes ends its turn before saying anything; the worker samples again
// rather than storing an empty reply, and stores one only when every try was empty.
describe("a reply that comes back empty", () => {
  let h: TestHearth | undefined;
  let model: Awaited<ReturnType<typeof startRecordingServer>> | undefined;
  afterEach(async () => {
    await h?.stop();
    await model?.close();
  });

  async function firstReply(replies: string[]) {
    model = await startRecordingServer(replies);
    h = await startTestHearth({ env: { LLM_BASE_URL: model.url, LLM_MODEL: "recorder" } });
    const base = await h.listen();
    const me = await h.signUp();
    const characterId = (await insertTestCharacter(h.database.db, me.id)).id;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { cookie: me.cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const started = (await (
      await post("/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
    const events = await readSse(
      await post("/api/generate", {
        conversation_id: started.conversation.id,
        action: "send",
        content: "Hi",
      }),
    );
    const done = events.map((e) => e.event).find((e) => e.type === "done") as
      | Extract<GenerationEvent, { type: "done" }>
      | undefined;
    return { done, requests: model.requests.length };
  }

  it("is sampled again, and the person gets the later, non-empty reply", async () => {
    const { done, requests } = await firstReply(["", "  ", "*waves* Hello there."]);
    expect(requests).toBe(3);
    expect(done?.empty).toBe(false);
    expect(done?.message?.content.trim()).toBe("*waves* Hello there.");
    expect(done?.message?.state).toBe("complete");
  });

  it("is stored as empty, and said so, only after three empty tries", async () => {
    const { done, requests } = await firstReply([""]);
    expect(requests).toBe(3);
    expect(done?.empty).toBe(true);
    expect(done?.message?.state).toBe("complete");
  });
});

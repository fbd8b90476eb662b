import type { ConversationCreated, GenerationEvent } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../../test/chat.ts";
import { comfyUiStandin } from "../../../../test/comfyui-standin.ts";
import { drivers } from "../../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { personAs } from "../../characters/test-support.ts";
import { conversations, generations, messages } from "../schema.ts";

/** Stop on a picture being made (issue 16): the picture is dropped, nothing is stored, the chat is free. */
describe.each(drivers)("stopping a picture on %s", (driver) => {
  let h: TestHearth;
  let base: string;
  let comfy: Awaited<ReturnType<typeof comfyUiStandin>>;
  beforeAll(async () => {
    comfy = await comfyUiStandin({ hold: true });
    h = await startTestHearth({
      driver,
      env: { IMAGES_BACKEND: "comfyui", IMAGES_BASE_URL: comfy.url, IMAGES_MODEL: "m.safetensors" },
    });
    base = await h.listen();
  });
  afterAll(async () => {
    await h.stop();
    await comfy.close();
  });

  it("ends with done and no message; the new message is gone and the generation stopped", async () => {
    const who = await personAs(h, "basic");
    const bot = await insertTestCharacter(h.database.db, who.id as string, { visibility: "public" });
    const headers = { cookie: who.cookie as string, "content-type": "application/json" };
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const created = (await (
      await post("/api/conversations", { character_id: bot.id })
    ).json()) as ConversationCreated;
    const events: GenerationEvent[] = [];
    const res = await post("/api/generate", {
      conversation_id: created.conversation.id,
      type: "image",
      action: "send",
    });
    let generationId = "";
    await readSse(res, async ({ event }) => {
      events.push(event);
      if (event.type === "started") {
        generationId = event.generation_id;
        // Stop once the image server has the workflow (it holds the run).
        await expect.poll(() => comfy.workflows.length).toBe(1);
        expect((await post(`/api/generations/${generationId}/stop`, {})).status).toBeLessThan(300);
      }
      return undefined;
    });
    expect(events.at(-1)).toMatchObject({ type: "done", message: null, empty: true });
    const db = h.database.db;
    const stored = await db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, created.conversation.id));
    expect(stored).toHaveLength(1); // the greeting only
    const [generation] = await db.select().from(generations).where(eq(generations.id, generationId));
    expect(generation?.status).toBe("stopped");
    const [conversation] = await db
      .select()
      .from(conversations)
      .where(eq(conversations.id, created.conversation.id));
    expect(conversation?.activeGenerationId).toBeNull();
    expect(conversation?.messageCount).toBe(1);
  });
});

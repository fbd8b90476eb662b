import type { ConversationCreated, Persona } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { startRecordingServer } from "../../../test/recording-openai-server.ts";

describe("the persona is the user's identity in the prompt", () => {
  let h: TestHearth;
  let model: Awaited<ReturnType<typeof startRecordingServer>>;
  let base: string;
  let me: { cookie: string; id: string };
  let characterId: string;

  beforeAll(async () => {
    model = await startRecordingServer();
    h = await startTestHearth({ env: { LLM_BASE_URL: model.url, LLM_MODEL: "recorder" } });
    base = await h.listen();
    me = await h.signUp({ name: "Sam" });
    characterId = (await insertTestCharacter(h.database.db, me.id)).id;
  });
  afterAll(async () => {
    await h.stop();
    await model.close();
  });

  const call = (cookie: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  const lastSystem = () => model.requests.at(-1)?.messages[0]?.content ?? "";

  it("uses the display name without personas, then the default persona, then the chat's chosen one", async () => {
    const first = (await (
      await call(me.cookie, "POST", "/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
    await readSse(
      await call(me.cookie, "POST", "/api/generate", {
        conversation_id: first.conversation.id,
        action: "send",
        content: "Hi",
      }),
    );
    expect(lastSystem()).toContain("You are talking with Sam.");

    const rook = (await (
      await call(me.cookie, "POST", "/api/personas", {
        name: "Captain Rook",
        highlights: "A retired sea captain.",
      })
    ).json()) as Persona;
    expect(rook.is_default).toBe(true);
    const second = (await (
      await call(me.cookie, "POST", "/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
    // {{user}} in the greeting is the persona too.
    expect(second.messages[0]?.content).toContain("Oh, hello Captain Rook!");
    await readSse(
      await call(me.cookie, "POST", "/api/generate", {
        conversation_id: second.conversation.id,
        action: "send",
        content: "Ahoy",
      }),
    );
    expect(lastSystem()).toContain("You are talking with Captain Rook. A retired sea captain.");

    const ada = (await (
      await call(me.cookie, "POST", "/api/personas", { name: "Ada", highlights: "" })
    ).json()) as Persona;
    const changed = await call(me.cookie, "PATCH", `/api/conversations/${second.conversation.id}`, {
      user_persona_id: ada.id,
    });
    expect(changed.status).toBe(200);
    await readSse(
      await call(me.cookie, "POST", "/api/generate", {
        conversation_id: second.conversation.id,
        action: "send",
        content: "Hello again",
      }),
    );
    expect(lastSystem()).toContain("You are talking with Ada.");
    expect(lastSystem()).not.toContain("Rook");
  });

  it("refuses another user's persona for a chat", async () => {
    const eve = await h.signUp({ name: "Eve" });
    const hers = (await (
      await call(eve.cookie, "POST", "/api/personas", { name: "Shadow", highlights: "" })
    ).json()) as Persona;
    const res = await call(me.cookie, "POST", "/api/conversations", {
      character_id: characterId,
      user_persona_id: hers.id,
    });
    expect(res.status).toBe(404);
    const mine = (await (
      await call(me.cookie, "POST", "/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
    expect(
      (
        await call(me.cookie, "PATCH", `/api/conversations/${mine.conversation.id}`, {
          user_persona_id: hers.id,
        })
      ).status,
    ).toBe(404);
  });
});

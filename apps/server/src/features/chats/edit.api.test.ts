import type {
  ApiError,
  Conversation,
  ConversationCreated,
  Message,
  MessagePage,
  RemovedMessages,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";

describe.each(drivers)("chat tools on %s: edit, remove, clone", (driver) => {
  let h: TestHearth;
  let base: string;
  let me: { cookie: string; id: string };
  let other: { cookie: string; id: string };
  let characterId: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });
    base = await h.listen();
    me = await h.signUp({ name: "Sam" });
    other = await h.signUp({ name: "Eve" });
    characterId = (await insertTestCharacter(h.database.db, me.id)).id;
  });
  afterAll(async () => {
    await h.stop();
  });

  const call = (cookie: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  /** A conversation with the greeting and `turns` exchanges. */
  async function chatWith(turns: number): Promise<{ id: string; messages: Message[] }> {
    const { conversation } = (await (
      await call(me.cookie, "POST", "/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
    for (let i = 0; i < turns; i++) {
      await readSse(
        await call(me.cookie, "POST", "/api/generate", {
          conversation_id: conversation.id,
          action: "send",
          content: `Turn ${i}`,
        }),
      );
    }
    const page = (await (
      await call(me.cookie, "GET", `/api/conversations/${conversation.id}/messages`)
    ).json()) as MessagePage;
    return { id: conversation.id, messages: page.messages };
  }

  it("edits a message's text; empty or unchanged-to-blank text is refused; others cannot", async () => {
    const chat = await chatWith(1);
    const user = chat.messages[1] as Message;
    const edited = (await (
      await call(me.cookie, "PATCH", `/api/messages/${user.id}`, { content: "  Turn zero, edited  " })
    ).json()) as Message;
    expect(edited.content).toBe("Turn zero, edited");
    const viaPut = await call(me.cookie, "PUT", `/api/messages/${user.id}`, { content: "Again" });
    expect(((await viaPut.json()) as Message).content).toBe("Again");
    expect((await call(me.cookie, "PATCH", `/api/messages/${user.id}`, { content: "   " })).status).toBe(400);
    expect((await call(me.cookie, "PATCH", `/api/messages/${user.id}`, {})).status).toBe(400);
    expect(
      (await call(me.cookie, "PATCH", `/api/messages/${user.id}`, { content: "x".repeat(20_001) })).status,
    ).toBe(400);
    expect((await call(other.cookie, "PATCH", `/api/messages/${user.id}`, { content: "mine" })).status).toBe(
      404,
    );
    const imagePrompt = await call(me.cookie, "PATCH", `/api/messages/${user.id}`, { image_prompt: "a map" });
    expect(imagePrompt.status).toBe(400);
    // The edit is what the next prompt sees: it is stored.
    const page = (await (
      await call(me.cookie, "GET", `/api/conversations/${chat.id}/messages`)
    ).json()) as MessagePage;
    expect(page.messages[1]?.content).toBe("Again");
  });

  it("removes a message and everything after it", async () => {
    const chat = await chatWith(2);
    expect(chat.messages).toHaveLength(5);
    const from = chat.messages[3] as Message;
    const res = (await (
      await call(me.cookie, "DELETE", `/api/conversations/${chat.id}/messages?from=${from.id}`)
    ).json()) as RemovedMessages;
    expect(res.removed).toBe(2);
    expect(res.conversation.message_count).toBe(3);
    expect(res.conversation.last_message?.content).toBe(chat.messages[2]?.content.slice(0, 200));
    const page = (await (
      await call(me.cookie, "GET", `/api/conversations/${chat.id}/messages`)
    ).json()) as MessagePage;
    expect(page.messages.map((m) => m.id)).toEqual(chat.messages.slice(0, 3).map((m) => m.id));
    expect((await call(me.cookie, "DELETE", `/api/conversations/${chat.id}/messages`)).status).toBe(400);
    expect(
      (
        await call(
          other.cookie,
          "DELETE",
          `/api/conversations/${chat.id}/messages?from=${chat.messages[0]?.id}`,
        )
      ).status,
    ).toBe(404);
  });

  it("clones fully and partially, with a required title of at most 50 characters", async () => {
    const chat = await chatWith(2);
    const full = (await (
      await call(me.cookie, "POST", `/api/conversations/${chat.id}/clone`, { label: "Copy", mode: "full" })
    ).json()) as { conversation: Conversation };
    expect(full.conversation).toMatchObject({ label: "Copy", message_count: 5 });
    const fullPage = (await (
      await call(me.cookie, "GET", `/api/conversations/${full.conversation.id}/messages`)
    ).json()) as MessagePage;
    expect(fullPage.messages.map((m) => [m.role, m.content, m.alternative_count])).toEqual(
      chat.messages.map((m) => [m.role, m.content, m.alternative_count]),
    );
    // New rows: editing the copy leaves the original alone.
    expect(fullPage.messages[0]?.id).not.toBe(chat.messages[0]?.id);

    const upTo = chat.messages[2] as Message;
    const partial = await call(me.cookie, "POST", `/api/conversations/${chat.id}/clone`, {
      label: "First half",
      mode: "partial",
      up_to_message_id: upTo.id,
    });
    expect(partial.status).toBe(201);
    const partialId = ((await partial.json()) as { conversation: Conversation }).conversation.id;
    const partialPage = (await (
      await call(me.cookie, "GET", `/api/conversations/${partialId}/messages`)
    ).json()) as MessagePage;
    expect(partialPage.messages.map((m) => m.content)).toEqual(
      chat.messages.slice(0, 3).map((m) => m.content),
    );

    for (const body of [
      { label: "", mode: "full" },
      { label: "   ", mode: "full" },
      { label: "x".repeat(51), mode: "full" },
      { label: "No end", mode: "partial" },
      { mode: "full" },
    ]) {
      const res = await call(me.cookie, "POST", `/api/conversations/${chat.id}/clone`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as ApiError).code).toBe("invalidRequest");
    }
    expect(
      (
        await call(other.cookie, "POST", `/api/conversations/${chat.id}/clone`, {
          label: "Steal",
          mode: "full",
        })
      ).status,
    ).toBe(404);
  });

  it("continue reports the text it builds on, so a resuming client can line tokens up", async () => {
    const chat = await chatWith(1);
    const last = chat.messages.at(-1) as Message;
    const events = await readSse(
      await call(me.cookie, "POST", "/api/generate", { conversation_id: chat.id, action: "continue" }),
    );
    const started = events.find((m) => m.event.type === "started")?.event;
    expect(started).toMatchObject({ action: "continue", base_content: last.content });
  });
});

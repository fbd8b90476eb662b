import type {
  ApiError,
  Conversation,
  ConversationCreated,
  ConversationList,
  MessagePage,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { characters } from "../characters/schema.ts";
import { appendMessage, findConversation } from "./queries.ts";

describe.each(drivers)("conversations API on %s", (driver) => {
  let h: TestHearth;
  let base: string;
  let owner: { cookie: string; id: string };
  let publicId: string;
  let privateId: string;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: {
        LLM_MODEL: TEST_MODEL_PATH,
        LLM_THREADS: "1",
        HEARTH_DAILY_LIMIT_GUEST: "1",
        HEARTH_DAILY_LIMIT_FREE: "2",
      },
    });
    base = await h.listen();
    owner = await h.signUp({ name: "Owner" });
    publicId = (await insertTestCharacter(h.database.db, owner.id)).id;
    privateId = (
      await insertTestCharacter(h.database.db, owner.id, { name: "Secret", visibility: "private" })
    ).id;
  });
  afterAll(async () => {
    await h.stop();
  });

  const call = (cookie: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const start = async (cookie: string, characterId = publicId) =>
    (await (
      await call(cookie, "POST", "/api/conversations", { character_id: characterId })
    ).json()) as ConversationCreated;
  const send = (cookie: string, conversationId: string, content = "Hello") =>
    call(cookie, "POST", "/api/generate", {
      conversation_id: conversationId,
      type: "text",
      action: "send",
      content,
    });

  it("pages a chat's messages newest first, each page before the oldest of the last; an unknown anchor gives the newest", async () => {
    const { conversation } = await start(owner.cookie);
    for (let i = 0; i < 7; i++)
      await appendMessage(h.database.db, { conversationId: conversation.id, role: "user", content: `m${i}` });
    const page = async (query: string) =>
      (await (
        await call(owner.cookie, "GET", `/api/conversations/${conversation.id}/messages?${query}`)
      ).json()) as MessagePage;
    const newest = await page("limit=3");
    expect(newest.messages.map((m) => m.content)).toEqual(["m4", "m5", "m6"]);
    expect(newest.has_more).toBe(true);
    const older = await page(`limit=3&before=${newest.messages[0]?.id}`);
    expect(older.messages.map((m) => m.content)).toEqual(["m1", "m2", "m3"]);
    expect(older.has_more).toBe(true);
    const oldest = await page(`limit=3&before=${older.messages[0]?.id}`);
    // The greeting, then m0: nothing before them.
    expect(oldest.messages.map((m) => m.content).slice(-1)).toEqual(["m0"]);
    expect(oldest.has_more).toBe(false);
    // A message of another chat is no anchor here: the newest page, as without one.
    const other = (await start(owner.cookie)).conversation;
    const foreign = await appendMessage(h.database.db, {
      conversationId: other.id,
      role: "user",
      content: "x",
    });
    const unanchored = await page(`limit=3&before=${foreign.id}`);
    expect(unanchored.messages.map((m) => m.content)).toEqual(["m4", "m5", "m6"]);
  });

  it("signed-out requests are refused", async () => {
    const res = await fetch(`${base}/api/conversations`);
    expect(res.status).toBe(401);
  });

  it("ids that are not UUIDs answer 400 invalidRequest, before any lookup; signed out it is 401", async () => {
    const { conversation, messages } = await start(owner.cookie);
    const messageId = messages[0]?.id as string;
    const bad = "not-a-uuid";
    const cases: [string, string, unknown?][] = [
      ["GET", `/api/conversations/${bad}`],
      ["PATCH", `/api/conversations/${bad}`, { label: "x" }],
      ["DELETE", `/api/conversations/${bad}`],
      ["GET", `/api/conversations/${bad}/messages`],
      ["DELETE", `/api/conversations/${bad}/messages?from=${messageId}`],
      ["POST", `/api/conversations/${bad}/clone`, { label: "Copy", mode: "full" }],
      ["GET", `/api/characters/${bad}/conversations`],
      ["PUT", `/api/messages/${bad}/alternative`, { alternative_index: 0 }],
      ["PATCH", `/api/messages/${bad}`, { content: "x" }],
      ["PUT", `/api/messages/${bad}`, { content: "x" }],
      ["GET", `/api/generations/${bad}/events`],
      ["POST", `/api/generations/${bad}/stop`],
      // Ids in bodies and queries too.
      ["POST", "/api/conversations", { character_id: bad }],
      ["GET", `/api/conversations?last_id=${bad}`],
      ["GET", `/api/conversations/${conversation.id}/messages?before=${bad}`],
      ["DELETE", `/api/conversations/${conversation.id}/messages?from=${bad}`],
      [
        "POST",
        `/api/conversations/${conversation.id}/clone`,
        { label: "Copy", mode: "partial", up_to_message_id: bad },
      ],
      ["POST", "/api/generate", { conversation_id: bad, action: "send", content: "hi" }],
      ["POST", "/api/generate", { conversation_id: conversation.id, action: "continue", message_id: bad }],
    ];
    for (const [method, path, body] of cases) {
      const res = await call(owner.cookie, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(((await res.json()) as ApiError).code, `${method} ${path}`).toBe("invalidRequest");
      // Who may not call it at all hears that first, whatever they sent.
      expect((await call("", method, path, body)).status, `signed out: ${method} ${path}`).toBe(401);
    }
    // A resume point that is not one of the stream's event ids is refused the same way.
    const resume = await call(owner.cookie, "GET", `/api/generations/${crypto.randomUUID()}/events?after=x`);
    expect(resume.status).toBe(400);
  });

  it("a chat whose character was deleted answers 404 notFound: read, rename, remove messages, clone", async () => {
    const doomed = await insertTestCharacter(h.database.db, owner.id, { name: "Doomed" });
    const { conversation, messages } = await start(owner.cookie, doomed.id);
    await h.database.db.update(characters).set({ deletedAt: new Date() }).where(eq(characters.id, doomed.id));
    const cases: [string, string, unknown?][] = [
      ["GET", `/api/conversations/${conversation.id}`],
      ["PATCH", `/api/conversations/${conversation.id}`, { label: "Renamed" }],
      ["DELETE", `/api/conversations/${conversation.id}/messages?from=${messages[0]?.id}`],
      ["POST", `/api/conversations/${conversation.id}/clone`, { label: "Copy", mode: "full" }],
    ];
    for (const [method, path, body] of cases) {
      const res = await call(owner.cookie, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as ApiError).code, `${method} ${path}`).toBe("notFound");
    }
    // Nothing was changed on the way.
    const page = (await (
      await call(owner.cookie, "GET", `/api/conversations/${conversation.id}/messages`)
    ).json()) as MessagePage;
    expect(page.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect((await findConversation(h.database.db, conversation.id))?.label).toBeNull();
    // It can still be deleted.
    expect((await call(owner.cookie, "DELETE", `/api/conversations/${conversation.id}`)).status).toBe(204);
  });

  it("another user's conversation does not exist for them, nor for an admin", async () => {
    const { conversation } = await start(owner.cookie);
    const other = await h.signUp();
    const admin = await h.signUp();
    await updateUser(h.database.db, admin.id, { is_admin: true });
    for (const who of [other, admin]) {
      for (const [method, path, body] of [
        ["GET", `/api/conversations/${conversation.id}`],
        ["GET", `/api/conversations/${conversation.id}/messages`],
        ["PATCH", `/api/conversations/${conversation.id}`, { label: "mine now" }],
        ["DELETE", `/api/conversations/${conversation.id}`],
        ["POST", "/api/generate", { conversation_id: conversation.id, action: "send", content: "hi" }],
      ] as const) {
        const res = await call(who.cookie, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      const list = (await (await call(who.cookie, "GET", "/api/conversations")).json()) as ConversationList;
      expect(list.conversations.map((c) => c.id)).not.toContain(conversation.id);
    }
  });

  it("a private character cannot be chatted with by others: invalidAccess", async () => {
    const other = await h.signUp();
    const res = await call(other.cookie, "POST", "/api/conversations", { character_id: privateId });
    expect(res.status).toBe(404);
    expect(((await res.json()) as ApiError).code).toBe("invalidAccess");
    expect((await call(owner.cookie, "POST", "/api/conversations", { character_id: privateId })).status).toBe(
      201,
    );
  });

  it("guests chat, but their conversations are not saved or listed", async () => {
    const guest = await h.signInAsGuest();
    const { conversation } = await start(guest.cookie);
    expect(conversation.is_saved).toBe(false);
    const list = (await (await call(guest.cookie, "GET", "/api/conversations")).json()) as ConversationList;
    expect(list.conversations).toEqual([]);
  });

  it("lists saved conversations newest first, 25 a page with Load More, and per character", async () => {
    const reader = await h.signUp();
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      const id = (await start(reader.cookie)).conversation.id;
      // Written in (as a sent message would), so it is listed and the next start opens a new one.
      await appendMessage(h.database.db, { conversationId: id, role: "user", content: `Hello ${i}` });
      ids.push(id);
    }
    const page1 = (await (await call(reader.cookie, "GET", "/api/conversations")).json()) as ConversationList;
    expect(page1.conversations).toHaveLength(25);
    expect(page1.is_last_id).toBe(false);
    expect(page1.conversations[0]?.id).toBe(ids.at(-1));
    const last = page1.conversations.at(-1)?.id as string;
    const page2 = (await (
      await call(reader.cookie, "GET", `/api/conversations?last_id=${last}`)
    ).json()) as ConversationList;
    expect(page2.conversations.map((c) => c.id)).toEqual([ids[1], ids[0]]);
    expect(page2.is_last_id).toBe(true);
    const perCharacter = (await (
      await call(reader.cookie, "GET", `/api/characters/${publicId}/conversations`)
    ).json()) as ConversationList;
    expect(perCharacter.conversations[0]?.character.name).toBe("Mira");
  });

  it("a chat opened but not written in is not listed, and opening one again reuses it", async () => {
    const visitor = await h.signUp();
    const first = await start(visitor.cookie);
    const again = await start(visitor.cookie);
    expect(again.conversation.id).toBe(first.conversation.id);
    expect(again.messages.map((m) => m.id)).toEqual(first.messages.map((m) => m.id));
    const listed = async (path: string) =>
      ((await (await call(visitor.cookie, "GET", path)).json()) as ConversationList).conversations.map(
        (c) => c.id,
      );
    expect(await listed("/api/conversations")).toEqual([]);
    expect(await listed(`/api/characters/${publicId}/conversations`)).toEqual([]);
    // Once a message is sent it is a chat: listed, and the next start is a new conversation.
    await readSse(await send(visitor.cookie, first.conversation.id));
    expect(await listed("/api/conversations")).toEqual([first.conversation.id]);
    expect((await start(visitor.cookie)).conversation.id).not.toBe(first.conversation.id);
  });

  it("renames (≤ 50 characters) and deletes a conversation", async () => {
    const { conversation } = await start(owner.cookie);
    const renamed = (await (
      await call(owner.cookie, "PATCH", `/api/conversations/${conversation.id}`, { label: "Map night" })
    ).json()) as Conversation;
    expect(renamed.label).toBe("Map night");
    expect(
      (await call(owner.cookie, "PATCH", `/api/conversations/${conversation.id}`, { label: "x".repeat(51) }))
        .status,
    ).toBe(400);
    expect(
      (await call(owner.cookie, "PATCH", `/api/conversations/${conversation.id}`, { label: "" })).status,
    ).toBe(400);
    expect((await call(owner.cookie, "DELETE", `/api/conversations/${conversation.id}`)).status).toBe(204);
    expect((await call(owner.cookie, "GET", `/api/conversations/${conversation.id}`)).status).toBe(404);
  });

  it("daily limits: the error differs for guests, free users and subscribers; paid plans are unlimited here", async () => {
    const guest = await h.signInAsGuest();
    const g = (await start(guest.cookie)).conversation.id;
    await readSse(await send(guest.cookie, g));
    const guestLimited = await send(guest.cookie, g);
    expect(guestLimited.status).toBe(429);
    expect(await guestLimited.json()).toEqual({
      code: "limitReached",
      message: "You've reached today's guest limit. Sign up free to keep chatting.",
    });

    const free = await h.signUp();
    const f = (await start(free.cookie)).conversation.id;
    await readSse(await send(free.cookie, f));
    await readSse(await send(free.cookie, f));
    const freeLimited = await send(free.cookie, f);
    expect(freeLimited.status).toBe(429);
    expect(((await freeLimited.json()) as ApiError).message).toContain("today's free messages");

    const paid = await h.signUp();
    await updateUser(h.database.db, paid.id, { role: "minimal", status: "active" });
    const p = (await start(paid.cookie)).conversation.id;
    for (let i = 0; i < 3; i++) {
      const res = await send(paid.cookie, p);
      expect(res.status).toBe(200);
      await readSse(res);
    }
  });

  it("a restricted account is refused", async () => {
    const restricted = await h.signUp();
    const c = (await start(restricted.cookie)).conversation.id;
    await updateUser(h.database.db, restricted.id, { restriction: "complete" });
    const res = await send(restricted.cookie, c);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ApiError).code).toBe("restricted");
  });
});

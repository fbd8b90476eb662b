import type {
  ApiError,
  ChatImportReport,
  Conversation,
  HearthChatFile,
  Lorebook,
  Persona,
} from "@hearth/contract";
import { asc, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { messages } from "../chats/schema.ts";
import { conversationLorebooks } from "../lorebooks/schema.ts";
import { memories, memoryProgress } from "../memories/schema.ts";
import { stChat } from "./test-support.ts";

/** Export in every format, who may export, and Hearth's file read back into the same conversation. */
describe.each(drivers)("chat export on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let owner: Person;
  let personaId: string;
  let characterId: string;
  let conversationId: string;

  const importFile = (file: string, who: Person, query = `character_id=${characterId}`) =>
    a.upload(`/api/conversations/import?${query}`, who, Buffer.from(file), { filename: "chat.jsonl" });
  const exportAs = (id: string, format: string, who?: Person) =>
    a.get(`/api/conversations/${id}/export?format=${format}`, who);

  /** A conversation as stored: what must come back the same. */
  async function snapshot(id: string) {
    const db = h.database.db;
    const conversation = (await a.get(`/api/conversations/${id}`, owner)).json<Conversation>();
    const rows = await db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, id))
      .orderBy(asc(messages.seq));
    const place = new Map(rows.map((r, i) => [r.id, i]));
    const memoryRows = await db.select().from(memories).where(eq(memories.conversationId, id));
    const books = await db
      .select()
      .from(conversationLorebooks)
      .where(eq(conversationLorebooks.conversationId, id));
    return {
      title: conversation.label,
      persona: conversation.user_persona_id,
      character: conversation.character_id,
      messageCount: conversation.message_count,
      messages: rows.map((r) => ({
        role: r.role,
        content: r.content,
        alternatives: r.alternatives,
        index: r.alternativeIndex,
        state: r.state,
        createdAt: r.createdAt.toISOString(),
      })),
      memories: memoryRows
        .map((m) => ({
          content: m.content,
          pinned: m.pinned,
          source: m.source,
          at: m.messageIds.map((mid) => place.get(mid)),
        }))
        .sort((x, y) => x.content.localeCompare(y.content)),
      lorebooks: books.sort((x, y) => x.position - y.position).map((b) => b.lorebookId),
    };
  }

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
    owner = await personAs(h, "minimal", "Sam");
    characterId = (await insertTestCharacter(h.database.db, owner.id as string)).id;
    personaId = (await a.post("/api/personas", { name: "Samwise" }, owner)).json<Persona>().id;
    const imported = await importFile(
      stChat(),
      owner,
      `character_id=${characterId}&user_persona_id=${personaId}`,
    );
    expect(imported.statusCode, imported.body).toBe(201);
    conversationId = imported.json<ChatImportReport>().conversation_id;
    // A title, memories (one tied to a message), a lorebook and a switched alternative.
    expect(
      (await a.patch(`/api/conversations/${conversationId}`, { label: "Stormy night" }, owner)).statusCode,
    ).toBe(200);
    const memory = await a.post(
      `/api/conversations/${conversationId}/memories`,
      { content: "Sam fears storms.", pinned: true },
      owner,
    );
    expect(memory.statusCode, memory.body).toBe(201);
    const [reply] = await h.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(asc(messages.seq))
      .offset(2)
      .limit(1);
    const book = await a.post(
      "/api/lorebooks",
      { name: "Harbor", entries: [{ id: "storm", keys: ["storm"], content: "Storms come at night." }] },
      owner,
    );
    expect(book.statusCode, book.body).toBe(201);
    const attach = await a.put(
      `/api/conversations/${conversationId}/lorebooks`,
      { lorebook_ids: [book.json<Lorebook>().id] },
      owner,
    );
    expect(attach.statusCode, attach.body).toBe(200);
    expect(
      (await a.put(`/api/messages/${reply?.id}/alternative`, { alternative_index: 1 }, owner)).statusCode,
    ).toBe(200);
    // An automatic memory of the reply as it now reads (switching alternatives forgets older ones).
    await h.database.db.insert(memories).values({
      conversationId,
      content: "Mira tried three times.",
      source: "auto",
      messageIds: [reply?.id as string],
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("exports Hearth's file and imports it back into an identical conversation", async () => {
    const res = await exportAs(conversationId, "hearth", owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="Mira - Stormy night - \d{4}-\d\d-\d\d\.hearth\.json"/,
    );
    const file = res.json<HearthChatFile>();
    expect(file).toMatchObject({
      format: "hearth-chat",
      version: 1,
      title: "Stormy night",
      persona: { id: personaId, name: "Samwise" },
    });
    const back = await importFile(res.body, owner);
    expect(back.statusCode, back.body).toBe(201);
    const report = back.json<ChatImportReport>();
    expect(report).toMatchObject({
      format: "hearth",
      messages: 3,
      memories: 2,
      lorebooks: 1,
      lorebooks_not_found: 0,
      user_names_replaced: 0,
    });
    const before = await snapshot(conversationId);
    const after = await snapshot(report.conversation_id);
    expect(before.messages[2]?.index).toBe(1);
    expect(before.memories).toHaveLength(2);
    expect(before.lorebooks).toHaveLength(1);
    expect(after).toEqual(before);
    // Its messages count as already read by automatic memory (the file brought its memories).
    const [progress] = await h.database.db
      .select()
      .from(memoryProgress)
      .where(eq(memoryProgress.conversationId, report.conversation_id));
    const [newest] = await h.database.db
      .select({ seq: messages.seq })
      .from(messages)
      .where(eq(messages.conversationId, report.conversation_id))
      .orderBy(desc(messages.seq))
      .limit(1);
    expect(progress?.throughSeq).toBe(newest?.seq);

    // Another member gets the messages, not the persona or the books that are not theirs.
    const other = await personAs(h, "minimal", "Kim");
    const theirs = (await importFile(res.body, other)).json<ChatImportReport>();
    expect(theirs).toMatchObject({ messages: 3, lorebooks: 0, lorebooks_not_found: 1, user_name_to: "Kim" });
    const theirConversation = (
      await a.get(`/api/conversations/${theirs.conversation_id}`, other)
    ).json<Conversation>();
    expect(theirConversation.user_persona_id).toBeNull();
  });

  it("exports SillyTavern JSONL that Hearth imports back with the same alternatives", async () => {
    const res = await exportAs(conversationId, "sillytavern", owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(/filename="Mira - Stormy night - [\d-]+\.jsonl"/);
    const lines = res.body
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ user_name: "Samwise", character_name: "Mira", chat_metadata: {} });
    expect(lines[0]?.create_date).toMatch(/^\d{4}-\d\d-\d\d@\d\dh\d\dm\d\ds$/);
    expect(lines.slice(1).map((l) => [l.name, l.is_user, l.mes, l.swipe_id])).toEqual([
      ["Mira", false, "Welcome back, Samwise.", 1],
      ["Samwise", true, "Hi Mira, it's Samwise. Call me Samwise!", undefined],
      ["Mira", false, "Second try", 1],
    ]);
    expect(lines[3]?.swipes).toEqual(["First try", "Second try", "Third try, <b>bold</b>"]);
    const back = (
      await importFile(res.body, owner, `character_id=${characterId}&user_persona_id=${personaId}`)
    ).json<ChatImportReport>();
    expect(back).toMatchObject({
      format: "sillytavern",
      messages: 3,
      alternatives: 3,
      user_name_from: "Samwise",
      user_name_to: "Samwise",
    });
    const before = await snapshot(conversationId);
    const after = await snapshot(back.conversation_id);
    expect(after.messages).toEqual(before.messages);
  });

  it("exports readable Markdown and a printable page with every text escaped", async () => {
    const md = await exportAs(conversationId, "markdown", owner);
    expect(md.statusCode).toBe(200);
    expect(md.headers["content-type"]).toMatch(/^text\/markdown/);
    expect(md.headers["content-disposition"]).toMatch(/\.md"/);
    expect(md.body).toContain("# Stormy night");
    expect(md.body).toContain("> Hi Mira, it's Samwise. Call me Samwise!");
    const page = await exportAs(conversationId, "html", owner);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-disposition"]).toMatch(/^inline; filename=".*\.html"/);
    expect(page.body).toContain("@media print");
    expect(page.body).toContain("<h1>Stormy night</h1>");
    // The third message's other alternative holds HTML: switch to it and look.
    const rows = await h.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(asc(messages.seq));
    await a.put(`/api/messages/${rows[2]?.id}/alternative`, { alternative_index: 2 }, owner);
    const escaped = (await exportAs(conversationId, "html", owner)).body;
    expect(escaped).toContain("Third try, &lt;b&gt;bold&lt;/b&gt;");
    expect(escaped).not.toContain("<b>bold</b>");
    expect((await exportAs(conversationId, "markdown", owner)).body).toContain("&lt;b&gt;bold&lt;/b&gt;");
    await a.put(`/api/messages/${rows[2]?.id}/alternative`, { alternative_index: 1 }, owner);
  });

  it("lets only the owner and administrators export", async () => {
    const check = async (who: Person | undefined, id: string, status: number, code?: string) => {
      const res = await exportAs(id, "hearth", who);
      expect(res.statusCode, `${who?.role}: ${res.body.slice(0, 200)}`).toBe(status);
      if (code) expect(res.json<ApiError>().code).toBe(code);
    };
    await check(await personAs(h, "premium"), conversationId, 404, "notFound");
    await check(await personAs(h, "guest"), conversationId, 404, "notFound");
    await check(undefined, conversationId, 401, "unauthorized");
    await check(await personAs(h, "restricted"), conversationId, 403, "restricted");
    const admin = await personAs(h, "admin");
    await check(admin, conversationId, 200);
    // An administrator reading a member's chat is on the audit log.
    const audit = await a.get(`/api/admin/audit-log?target_id=${conversationId}`, admin);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.body).toContain("conversation.export");
    await check(owner, "00000000-0000-4000-8000-000000000000", 404, "notFound");
    await check(owner, "not-an-id", 400, "invalidRequest");
    const badFormat = await exportAs(conversationId, "pdf", owner);
    expect(badFormat.statusCode).toBe(400);

    // A guest exports their own temporary chat.
    const guest = await personAs(h, "guest");
    const started = await a.post("/api/conversations", { character_id: characterId }, guest);
    expect(started.statusCode, started.body).toBe(201);
    const guestChat = started.json<{ conversation: Conversation }>().conversation.id;
    await check(guest, guestChat, 200);
    await check(owner, guestChat, 404, "notFound");

    // An owner restricted since hears `restricted`, not their chat.
    const later = await personAs(h, "minimal");
    const theirs = (await importFile(stChat(), later)).json<ChatImportReport>();
    await updateUser(h.database.db, later.id as string, { restriction: "complete" });
    await check(later, theirs.conversation_id, 403, "restricted");
  });
});

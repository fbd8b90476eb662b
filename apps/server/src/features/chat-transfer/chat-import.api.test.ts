import type {
  ApiError,
  ChatImportReport,
  Conversation,
  ConversationList,
  MessagePage,
  Persona,
} from "@hearth/contract";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { hearthChat } from "../../../test/hostile-uploads.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { messages } from "../chats/schema.ts";
import { longStChat, stChat } from "./test-support.ts";

/** SillyTavern chat import: swipes, names, the report, refusals, and a 10,000-message chat. */
describe.each(drivers)("chat import on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let member: Person;
  let characterId: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
    member = await personAs(h, "free", "Sam Display");
    characterId = (await insertTestCharacter(h.database.db, member.id as string)).id;
  });
  afterAll(async () => {
    await h.stop();
  });

  const importFile = (
    file: string | Buffer,
    who: Person,
    query = `character_id=${characterId}`,
    filename = "chat.jsonl",
  ) =>
    a.upload(`/api/conversations/import?${query}`, who, Buffer.isBuffer(file) ? file : Buffer.from(file), {
      filename,
    });

  const storedRows = (conversationId: string) =>
    h.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(asc(messages.seq));

  it("turns swipes into alternatives with the selected one, maps the user to the persona, and reports what it left out", async () => {
    const persona = await a.post("/api/personas", { name: "Sam" }, member);
    expect(persona.statusCode, persona.body).toBe(201);
    const personaId = persona.json<Persona>().id;
    const res = await importFile(
      stChat(),
      member,
      `character_id=${characterId}&user_persona_id=${personaId}`,
    );
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json<ChatImportReport>();
    expect(report).toMatchObject({
      character_id: characterId,
      format: "sillytavern",
      messages: 3,
      alternatives: 1 + 2,
      skipped_system_messages: 1,
      skipped_empty_messages: 1,
      skipped_alternatives: 0,
      character_name_from: "Mira",
      other_speakers: [],
      user_name_from: "Alex",
      user_name_to: "Sam",
      user_names_replaced: 4,
      memories: 0,
      lorebooks: 0,
    });
    expect(report.dropped_metadata_keys).toEqual(
      expect.arrayContaining([
        "chat_metadata.note_prompt",
        "chat_metadata.tainted",
        "extra.api",
        "extra.model",
        "extra.bias",
        "gen_started",
        "swipe_info",
      ]),
    );

    const conversation = (
      await a.get(`/api/conversations/${report.conversation_id}`, member)
    ).json<Conversation>();
    expect(conversation).toMatchObject({
      user_persona_id: personaId,
      message_count: 3,
      is_saved: true,
      label: null,
    });
    expect(conversation.last_message).toMatchObject({ role: "bot", content: "Third try, <b>bold</b>" });

    const page = (
      await a.get(`/api/conversations/${report.conversation_id}/messages`, member)
    ).json<MessagePage>();
    expect(page.messages.map((m) => [m.role, m.content, m.alternative_index, m.alternative_count])).toEqual([
      ["bot", "Welcome back, Sam.", 1, 2],
      ["user", "Hi Mira, it's Sam. Call me Sam!", 0, 1],
      ["bot", "Third try, <b>bold</b>", 2, 3],
    ]);
    const rows = await storedRows(report.conversation_id);
    expect(rows.map((r) => r.alternatives)).toEqual([
      ["Oh, hello Sam!", "Welcome back, Sam."],
      ["Hi Mira, it's Sam. Call me Sam!"],
      ["First try", "Second try", "Third try, <b>bold</b>"],
    ]);
    expect(rows.map((r) => r.createdAt.toISOString()).slice(1)).toEqual([
      "2024-05-01T20:01:00.000Z",
      "2024-05-01T20:02:00.000Z",
    ]);

    // Switching alternatives works on imported messages like on any other.
    const first = rows[0]?.id as string;
    const switched = await a.put(`/api/messages/${first}/alternative`, { alternative_index: 0 }, member);
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json<{ content: string }>().content).toBe("Oh, hello Sam!");
  });

  it("uses the member's default persona, else their name, when none is chosen", async () => {
    const plain = await personAs(h, "free", "Robin");
    const noPersona = (await importFile(stChat("Alex"), plain)).json<ChatImportReport>();
    expect(noPersona.user_name_to).toBe("Robin");
    const made = (await a.post("/api/personas", { name: "Captain" }, plain)).json<Persona>();
    expect((await a.post(`/api/personas/${made.id}/default`, {}, plain)).statusCode).toBe(200);
    const withDefault = await importFile(stChat("Alex"), plain);
    expect(withDefault.statusCode, withDefault.body).toBe(201);
    const report = withDefault.json<ChatImportReport>();
    expect(report.user_name_to).toBe("Captain");
    const conversation = (
      await a.get(`/api/conversations/${report.conversation_id}`, plain)
    ).json<Conversation>();
    expect(conversation.user_persona_id).toBeNull();
    const page = (
      await a.get(`/api/conversations/${report.conversation_id}/messages`, plain)
    ).json<MessagePage>();
    expect(page.messages[1]?.content).toBe("Hi Mira, it's Captain. Call me Captain!");
  });

  it("answers a malformed or foreign file with a clear 400 or 415, never a 500", async () => {
    const cases: [string | Buffer, number, RegExp][] = [
      [`${JSON.stringify({ user_name: "A" })}\n{"mes": "broken`, 400, /Line 2 is not valid JSON/],
      [`${JSON.stringify({ user_name: "A" })}\n[1, 2]`, 400, /Line 2 is not a chat message/],
      ["", 415, /not a chat file/],
      ["just some text", 415, /not a chat file/],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 415, /not a chat file/],
      [
        JSON.stringify({ format: "hearth-chat", version: 1, messages: "no" }),
        400,
        /Hearth chat file is damaged/,
      ],
      [
        `${JSON.stringify({ user_name: "A" })}\n${JSON.stringify({ mes: "nul \u0000 and lone \ud800", is_user: true })}`,
        201,
        /./,
      ],
    ];
    for (const [file, status, message] of cases) {
      const res = await importFile(file, member);
      expect(res.statusCode, res.body).toBe(status);
      if (status !== 201) expect(res.json<ApiError>().message).toMatch(message);
    }
    const noFile = await a.post(
      `/api/conversations/import?character_id=${characterId}`,
      { file: "x" },
      member,
    );
    expect(noFile.statusCode).toBe(415);
    const badQuery = await importFile(stChat(), member, "character_id=nope");
    expect(badQuery.statusCode).toBe(400);
    const missingCharacter = await importFile(
      stChat(),
      member,
      "character_id=00000000-0000-4000-8000-000000000000",
    );
    expect(missingCharacter.statusCode).toBe(404);
    const othersPersona = (
      await a.post("/api/personas", { name: "Other" }, await personAs(h, "free"))
    ).json<Persona>();
    const wrongPersona = await importFile(
      stChat(),
      member,
      `character_id=${characterId}&user_persona_id=${othersPersona.id}`,
    );
    expect(wrongPersona.statusCode).toBe(404);
  });

  it("refuses an upload over 50 MB with 413", async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 0x20);
    big[0] = 0x7b; // "{"
    const res = await importFile(big, member);
    expect(res.statusCode).toBe(413);
    expect(res.json<ApiError>().code).toBe("payloadTooLarge");
  });

  it("refuses the signed out, guests and restricted accounts before reading the file", async () => {
    for (const [role, status, code] of [
      ["signed out", 401, "unauthorized"],
      ["guest", 403, "forbidden"],
      ["restricted", 403, "restricted"],
    ] as const) {
      const res = await importFile(stChat(), await personAs(h, role));
      expect(res.statusCode, role).toBe(status);
      expect(res.json<ApiError>().code).toBe(code);
    }
  });

  it("imports a 10,000-message chat in one go", async () => {
    const file = longStChat(10_000);
    const started = performance.now();
    const res = await importFile(file, member);
    const ms = performance.now() - started;
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json<ChatImportReport>();
    console.log(
      `[${driver}] imported 10,000 messages (${(file.length / 1024 / 1024).toFixed(1)} MB) in ${ms.toFixed(0)} ms`,
    );
    expect(report).toMatchObject({ messages: 10_000, alternatives: 5_000 });
    const rows = await storedRows(report.conversation_id);
    expect(rows).toHaveLength(10_000);
    expect(rows.at(-1)?.content).toBe("Message 9999 from Alex".replace("Alex", report.user_name_to));
    expect(rows[0]).toMatchObject({
      content: "Reply 0",
      alternativeIndex: 1,
      alternatives: ["Other 0", "Reply 0"],
    });
    const conversation = (
      await a.get(`/api/conversations/${report.conversation_id}`, member)
    ).json<Conversation>();
    expect(conversation.message_count).toBe(10_000);
  }, 120_000);

  it("stores a long chat a batch at a time, unseen until it is whole: other requests are answered meanwhile", async () => {
    const who = await personAs(h, "free");
    const chunks: Buffer[] = [];
    for await (const chunk of hearthChat(20_000, 6 * 1024 * 1024)) chunks.push(chunk);
    let done = false;
    const importing = importFile(
      Buffer.concat(chunks),
      who,
      `character_id=${characterId}`,
      "chat.json",
    ).finally(() => {
      done = true;
    });
    // Between the batches the database answers others: it shows part of the messages stored, and
    // the half-made chat unsaved, so no list of the member's chats shows it yet.
    const seen: { stored: number; saved: boolean }[] = [];
    while (!done) {
      const { rows } = await h.database.db.execute<{ stored: number; saved: boolean }>(sql`
        select count(m.id)::int as stored, c.is_saved as saved
        from conversations c left join messages m on m.conversation_id = c.id
        where c.user_id = ${who.id as string} group by c.id`);
      seen.push(...rows.map((row) => ({ stored: Number(row.stored), saved: Boolean(row.saved) })));
    }
    const res = await importing;
    expect(res.statusCode, res.body).toBe(201);
    expect(seen.some(({ stored }) => stored > 0 && stored < 20_000)).toBe(true);
    expect(seen.filter(({ stored }) => stored < 20_000).every(({ saved }) => !saved)).toBe(true);
    const { conversation_id } = res.json<ChatImportReport>();
    expect(await storedRows(conversation_id)).toHaveLength(20_000);
    expect((await a.get("/api/conversations", who)).json<ConversationList>().conversations).toHaveLength(1);
  }, 120_000);
});

import type {
  AccountImportReport,
  ApiError,
  Character,
  ChatImportReport,
  Conversation,
  Persona,
} from "@hearth/contract";
import { asc, eq } from "drizzle-orm";
import { unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { api, type Person, personAs, testImage } from "../characters/test-support.ts";
import { stChat } from "../chat-transfer/test-support.ts";
import { messages } from "../chats/schema.ts";
import { conversationLorebooks, lorebooks } from "../lorebooks/schema.ts";
import { memories } from "../memories/schema.ts";

const BOOK = {
  name: "Harbor lore",
  description: "",
  scan_depth: 4,
  token_budget: 512,
  recursive_scanning: false,
  entries: [{ id: "storm", keys: ["storm"], content: "Storms come at night." }],
};

/** A conversation as the API and the database hold it: what must come back the same. */
async function snapshot(h: TestHearth, who: Person, id: string) {
  const a = api(h);
  const conversation = (await a.get(`/api/conversations/${id}`, who)).json<Conversation>();
  const rows = await h.database.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, id))
    .orderBy(asc(messages.seq));
  const place = new Map(rows.map((r, i) => [r.id, i]));
  const memoryRows = await h.database.db.select().from(memories).where(eq(memories.conversationId, id));
  const persona = conversation.user_persona_id
    ? (await a.get(`/api/personas/${conversation.user_persona_id}`, who)).json<Persona>().name
    : null;
  const books = await h.database.db
    .select({ book: lorebooks.book })
    .from(conversationLorebooks)
    .innerJoin(lorebooks, eq(lorebooks.id, conversationLorebooks.lorebookId))
    .where(eq(conversationLorebooks.conversationId, id));
  return {
    title: conversation.label,
    persona,
    lorebooks: books.map((b) => b.book),
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
        at: m.messageIds.map((x) => place.get(x)),
      }))
      .sort((x, y) => x.content.localeCompare(y.content)),
  };
}

const definition = (c: Character) => ({
  name: c.name,
  title: c.title,
  greeting: c.greeting,
  alternate_greetings: c.alternate_greetings,
  persona: c.persona,
  personality: c.personality,
  scenario: c.scenario,
  dialogue: c.dialogue,
  system_prompt: c.system_prompt,
  post_history_instructions: c.post_history_instructions,
  creator_notes: c.creator_notes,
  tags: c.tags,
  language: c.language,
  is_nsfw: c.is_nsfw,
  character_book: c.character_book,
  has_avatar: c.avatar_url !== null,
});

/** Whole-account export from one Hearth, imported by a member of a second, fresh one. */
describe.each(drivers)("account export and import on %s", (driver) => {
  let h1: TestHearth;
  let h2: TestHearth;
  let owner: Person;
  let archive: Buffer;
  const chatIds: string[] = [];
  const characterIds: string[] = [];

  beforeAll(async () => {
    [h1, h2] = await Promise.all([startTestHearth({ driver }), startTestHearth({ driver })]);
    const a = api(h1);
    owner = await personAs(h1, "premium", "Sam");
    const mira = await a.create(owner, {
      name: "Mira",
      greeting: "Welcome back.",
      persona: "A lighthouse keeper.",
      tags: ["Sea", "Mystery"],
      alternate_greetings: ["Ahoy."],
      character_book: BOOK,
    });
    const avatar = await a.upload(`/api/characters/${mira.id}/avatar`, owner, await testImage("png"));
    expect(avatar.statusCode, avatar.body).toBe(200);
    const rook = await a.create(owner, {
      name: "Rook",
      scenario: "A chess club.",
      system_prompt: "Be terse.",
    });
    characterIds.push(mira.id, rook.id);
    const samwise = await a.post("/api/personas", { name: "Samwise", highlights: "A gardener." }, owner);
    expect(samwise.statusCode, samwise.body).toBe(201);
    const personaId = samwise.json<Persona>().id;
    const face = await a.upload(`/api/personas/${personaId}/avatar`, owner, await testImage("png"));
    expect(face.statusCode, face.body).toBe(200);
    expect((await a.patch("/api/users/me", { highlights: "I like storms." }, owner)).statusCode).toBe(200);
    for (const [characterId, title] of [
      [mira.id, "Stormy night"],
      [rook.id, "Endgame"],
    ] as const) {
      const imported = await a.upload(
        `/api/conversations/import?character_id=${characterId}&user_persona_id=${personaId}`,
        owner,
        Buffer.from(stChat()),
        { filename: "chat.jsonl" },
      );
      expect(imported.statusCode, imported.body).toBe(201);
      const id = imported.json<ChatImportReport>().conversation_id;
      chatIds.push(id);
      expect((await a.patch(`/api/conversations/${id}`, { label: title }, owner)).statusCode).toBe(200);
      const memory = await a.post(
        `/api/conversations/${id}/memories`,
        { content: `${title} memory.`, pinned: true },
        owner,
      );
      expect(memory.statusCode, memory.body).toBe(201);
    }
    const book = await a.post("/api/lorebooks", { ...BOOK, name: "Harbor" }, owner);
    expect(book.statusCode, book.body).toBe(201);
    const attach = await a.put(
      `/api/conversations/${chatIds[0]}/lorebooks`,
      { lorebook_ids: [book.json<{ id: string }>().id] },
      owner,
    );
    expect(attach.statusCode, attach.body).toBe(200);
    const [reply] = await h1.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, chatIds[0] as string))
      .orderBy(asc(messages.seq))
      .offset(2)
      .limit(1);
    expect(
      (await a.put(`/api/messages/${reply?.id}/alternative`, { alternative_index: 1 }, owner)).statusCode,
    ).toBe(200);
    await h1.database.db.insert(memories).values({
      conversationId: chatIds[0] as string,
      content: "Mira tried twice.",
      source: "auto",
      messageIds: [reply?.id as string],
    });
    const res = await a.get("/api/account/export", owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="Hearth .*\.zip"/);
    archive = res.rawPayload;
  });
  afterAll(async () => {
    await Promise.all([h1?.stop(), h2?.stop()]);
  });

  it("writes a manifest, CharX cards, Hearth chat JSON, personas and settings, and no secrets", () => {
    const files = unzipSync(new Uint8Array(archive));
    const names = Object.keys(files).sort();
    const manifest = JSON.parse(Buffer.from(files["manifest.json"] as Uint8Array).toString("utf8"));
    expect(manifest).toMatchObject({
      format: "hearth-account",
      version: 1,
      counts: { characters: 2, conversations: 2, personas: 1, lorebooks: 1 },
    });
    expect(names.filter((n) => n.startsWith("characters/Mira-") && n.endsWith(".charx"))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith("characters/Rook-") && n.endsWith(".json"))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith("conversations/"))).toHaveLength(2);
    expect(names).toContain("settings.json");
    const chat = JSON.parse(
      Buffer.from(files[manifest.conversations[0].file] as Uint8Array).toString("utf8"),
    );
    expect(chat.format).toBe("hearth-chat");
    const settings = JSON.parse(Buffer.from(files["settings.json"] as Uint8Array).toString("utf8"));
    expect(settings).toEqual({
      highlights: "I like storms.",
      show_nsfw: false,
      openai_mode: "disabled",
      default_model_id: null,
    });
    const text = Buffer.from(archive).toString("latin1");
    expect(text).not.toMatch(/password|llm_api_key|session/i);
  });

  it("imports into a fresh Hearth with the same characters, conversations, personas and settings", async () => {
    const b = api(h2);
    const newcomer = await personAs(h2, "premium", "Sam Again");
    const res = await b.upload("/api/account/import", newcomer, archive, { filename: "hearth.zip" });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json<AccountImportReport>();
    expect(report).toMatchObject({ characters: 2, conversations: 2, personas: 1, lorebooks: 1, skipped: [] });
    expect(report.settings).toContain("highlights");
    expect(report.memories).toBe(3);

    const a = api(h1);
    const before = await Promise.all(
      characterIds.map(async (id) => (await a.get(`/api/characters/${id}`, owner)).json<Character>()),
    );
    const mine = (await h2.database.db.query.characters.findMany({
      where: (c, { eq }) => eq(c.creatorUserId, newcomer.id as string),
    })) as Array<{ id: string }>;
    const after = await Promise.all(
      mine.map(async (c) => (await b.get(`/api/characters/${c.id}`, newcomer)).json<Character>()),
    );
    const byName = (list: Character[]) =>
      [...list].sort((x, y) => x.name.localeCompare(y.name)).map(definition);
    expect(byName(after)).toEqual(byName(before));
    expect(after.every((c) => c.visibility === "private")).toBe(true);

    const personas = (await b.get("/api/personas", newcomer)).json<{ personas: Persona[] }>().personas;
    expect(
      personas.map((p) => ({ name: p.name, highlights: p.highlights, avatar: p.avatar_url !== null })),
    ).toEqual([{ name: "Samwise", highlights: "A gardener.", avatar: true }]);

    const list = await h2.database.db.query.conversations.findMany({
      where: (c, { eq }) => eq(c.userId, newcomer.id as string),
    });
    const newChats = await Promise.all(list.map((c) => snapshot(h2, newcomer, c.id)));
    const oldChats = await Promise.all(chatIds.map((id) => snapshot(h1, owner, id)));
    const byTitle = (xs: typeof oldChats) =>
      [...xs].sort((x, y) => String(x.title).localeCompare(String(y.title)));
    expect(byTitle(newChats)).toEqual(byTitle(oldChats));
    for (const c of list) expect(after.map((x) => x.id)).toContain(c.characterId);

    const profile = (await b.get("/api/users/me/profile", newcomer)).json<{ highlights: string }>();
    expect(profile.highlights).toBe("I like storms.");
  });

  it("imports the same archive again adding only what is missing, and restores what was deleted", async () => {
    const b = api(h2);
    const member = await personAs(h2, "premium", "Twice Over");
    const first = await b.upload("/api/account/import", member, archive, { filename: "hearth.zip" });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<AccountImportReport>()).toMatchObject({
      characters: 2,
      conversations: 2,
      already_imported: 0,
    });
    const counts = async () => ({
      characters: (
        await h2.database.db.query.characters.findMany({
          where: (c, { and, eq, isNull }) =>
            and(eq(c.creatorUserId, member.id as string), isNull(c.deletedAt)),
        })
      ).length,
      conversations: (
        await h2.database.db.query.conversations.findMany({
          where: (c, { eq }) => eq(c.userId, member.id as string),
        })
      ).length,
      lorebooks: (
        await h2.database.db
          .select()
          .from(lorebooks)
          .where(eq(lorebooks.userId, member.id as string))
      ).length,
    });
    const once = await counts();
    expect(once).toEqual({ characters: 2, conversations: 2, lorebooks: 1 });

    const again = await b.upload("/api/account/import", member, archive, { filename: "hearth.zip" });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<AccountImportReport>()).toMatchObject({
      characters: 0,
      conversations: 0,
      lorebooks: 0,
      already_imported: 5,
    });
    expect(await counts()).toEqual(once);

    // A character deleted since comes back; the rest stay single.
    const [gone] = await h2.database.db.query.characters.findMany({
      where: (c, { eq }) => eq(c.creatorUserId, member.id as string),
    });
    const deleted = await b.delete(`/api/characters/${(gone as { id: string }).id}`, member);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const third = await b.upload("/api/account/import", member, archive, { filename: "hearth.zip" });
    expect(third.json<AccountImportReport>()).toMatchObject({ characters: 1, already_imported: 4 });
    expect(await counts()).toEqual(once);
  });

  it("answers 400 with a clear message for archives it cannot use, never 500", async () => {
    const b = api(h2);
    const member = await personAs(h2, "free", "Mallory");
    const manifestOnly = (manifest: unknown) =>
      Buffer.from(zipSync({ "manifest.json": new TextEncoder().encode(JSON.stringify(manifest)) }));
    const cases: Buffer[] = [
      Buffer.from("not a zip at all"),
      Buffer.from(zipSync({ "hello.txt": new TextEncoder().encode("hi") })),
      Buffer.from(zipSync({ "manifest.json": new TextEncoder().encode("{nope") })),
      manifestOnly({ format: "hearth-account", version: 7 }),
      manifestOnly({ format: "something-else" }),
      archive.subarray(0, Math.floor(archive.length / 2)),
      Buffer.concat([archive.subarray(0, 200), Buffer.alloc(50, 0xff), archive.subarray(250)]),
    ];
    for (const file of cases) {
      const res = await b.upload("/api/account/import", member, file, { filename: "x.zip" });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<ApiError>().message).toMatch(/Hearth account archive/);
    }
    // A file past its folder's limit (settings.json may be 4 MB), refused before anything is imported.
    const big = Buffer.from(
      zipSync({
        ...unzipSync(new Uint8Array(archive)),
        "settings.json": new Uint8Array(5 * 2 ** 20).fill(32),
      }),
    );
    const tooBig = await b.upload("/api/account/import", member, big, { filename: "big.zip" });
    expect(tooBig.statusCode, tooBig.body).toBe(400);
    expect(tooBig.json<ApiError>().message).toMatch(/settings\.json is larger than 4 MB/);
    expect((await b.get("/api/users/characters", member)).body).not.toContain("Mira");
    const empty = await b.upload("/api/account/import", member, Buffer.alloc(0), { filename: "x.zip" });
    expect(empty.statusCode).toBe(400);
    const json = await h2.app.inject({
      method: "POST",
      url: "/api/account/import",
      headers: { cookie: member.cookie as string, "content-type": "application/json" },
      payload: "{}",
    });
    expect(json.statusCode).toBe(415);
  });

  it("lets only the signed-in member take out or bring in their own data", async () => {
    const a = api(h1);
    const other = await personAs(h1, "free", "Other");
    const theirs = await a.get("/api/account/export", other);
    expect(theirs.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(theirs.rawPayload));
    const manifest = JSON.parse(Buffer.from(files["manifest.json"] as Uint8Array).toString("utf8"));
    expect(manifest.counts).toEqual({ characters: 0, conversations: 0, personas: 0, lorebooks: 0 });
    expect(Buffer.from(theirs.rawPayload).toString("latin1")).not.toContain("Mira");

    expect((await a.get("/api/account/export")).statusCode).toBe(401);
    const guest = await personAs(h1, "guest");
    const g = await a.get("/api/account/export", guest);
    expect(g.statusCode).toBe(403);
    expect(g.json<ApiError>().message).toMatch(/Sign up/);
    expect((await a.upload("/api/account/import", guest, archive)).statusCode).toBe(403);
    // A restricted account still downloads its own data, but imports nothing.
    const restricted = await personAs(h1, "restricted");
    const r = await a.get("/api/account/export", restricted);
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toBe("application/zip");
    expect((await a.upload("/api/account/import", restricted, archive)).json<ApiError>().code).toBe(
      "restricted",
    );
  });

  it("binds a chat with another creator's public character where that character is, and says why not elsewhere", async () => {
    const a = api(h1);
    const fan = await personAs(h1, "free", "Fan");
    const bot = await insertTestCharacter(h1.database.db, owner.id as string, { name: "Lantern" });
    const chat = await a.upload(
      `/api/conversations/import?character_id=${bot.id}`,
      fan,
      Buffer.from(stChat()),
      {
        filename: "chat.jsonl",
      },
    );
    expect(chat.statusCode, chat.body).toBe(201);
    const exported = await a.get("/api/account/export", fan);
    expect(exported.statusCode).toBe(200);
    const theirs = exported.rawPayload;

    // The same Hearth: the chat comes back with the same public character.
    const friend = await personAs(h1, "free", "Friend");
    const here = (await a.upload("/api/account/import", friend, theirs)).json<AccountImportReport>();
    expect(here).toMatchObject({ characters: 0, conversations: 1, messages: 3, skipped: [] });
    const [copy] = await h1.database.db.query.conversations.findMany({
      where: (c, { eq }) => eq(c.userId, friend.id as string),
    });
    expect(copy?.characterId).toBe(bot.id);

    // Another Hearth has no such character: the chat is skipped, with the reason.
    const elsewhere = await personAs(h2, "free", "Elsewhere");
    const there = (
      await api(h2).upload("/api/account/import", elsewhere, theirs)
    ).json<AccountImportReport>();
    expect(there.conversations).toBe(0);
    expect(there.skipped).toEqual([
      { item: expect.stringMatching(/^conversations\//), reason: expect.stringMatching(/another creator's/) },
    ]);
  });

  it("refuses an administrator viewing the site as the member", async () => {
    const a = api(h1);
    const admin = await personAs(h1, "admin", "Ada");
    const start = await a.post(`/api/admin/users/${owner.id}/impersonate`, {}, admin);
    expect(start.statusCode, start.body).toBe(200);
    // The browser's jar afterwards: the admin's cookies, overwritten by the ones the view sets.
    const jar = new Map(
      (admin.cookie ?? "").split("; ").map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
    for (const line of [start.headers["set-cookie"] ?? []].flat()) {
      const [name = "", value = ""] = (line.split("; ")[0] ?? "").split(/=(.*)/s);
      jar.set(name, value);
    }
    const cookie = [...jar]
      .filter(([, v]) => v)
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
    const viewing: Person = { role: "free", id: owner.id, cookie };
    expect(
      (await a.get("/api/me", viewing)).json<{ impersonated_by: unknown }>().impersonated_by,
    ).not.toBeNull();
    const res = await a.get("/api/account/export", viewing);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<ApiError>().code).toBe("impersonating");
    await updateUser(h1.database.db, admin.id as string, { is_admin: false });
  });
});

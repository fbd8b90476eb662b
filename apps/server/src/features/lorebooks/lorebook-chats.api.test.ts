import { randomUUID } from "node:crypto";
import {
  type Character,
  type ConversationCreated,
  type ConversationLorebooks,
  LOREBOOKS_PER_CONVERSATION_MAX,
  type Lorebook,
  type LorebookBodyInput,
  lorebookBody,
  type PromptReport,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { characters } from "../characters/schema.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { harbor } from "./test-support.ts";

/** Books attached to chats (policy, limits, clones, a real reply's prompt) and characters' own books. */
describe.each(drivers)("lorebooks in chats and characters on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let owner: Person;
  let base: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { LLM_MODEL: TEST_MODEL_PATH, LLM_THREADS: "1" } });
    a = api(h);
    base = await h.listen();
    owner = await personAs(h, "premium", "Sam");
  });
  afterAll(async () => {
    await h.stop();
  });

  /** A chat with a new character each time (opening a chat again reuses the first). */
  const newChat = async (who: Person) => {
    const character = await insertTestCharacter(h.database.db, who.id as string);
    const res = await a.post("/api/conversations", { character_id: character.id }, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ConversationCreated>().conversation.id;
  };
  const newBook = async (who: Person, name = "Harbor") => {
    const res = await a.post("/api/lorebooks", { ...harbor, name }, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Lorebook>();
  };
  const attach = (who: Person, chat: string, ids: string[]) =>
    a.put(`/api/conversations/${chat}/lorebooks`, { lorebook_ids: ids }, who);
  const attached = async (who: Person, chat: string) => {
    const res = await a.get(`/api/conversations/${chat}/lorebooks`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ConversationLorebooks>();
  };

  describe("attached to a conversation", () => {
    it("attaches in order, replaces the list, detaches all, and detaches a deleted book", async () => {
      const chat = await newChat(owner);
      const [one, two] = [await newBook(owner, "One"), await newBook(owner, "Two")];
      const res = await attach(owner, chat, [two.id, one.id, two.id]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ConversationLorebooks>()).toEqual({
        lorebooks: [expect.objectContaining({ id: two.id }), expect.objectContaining({ id: one.id })],
        max_lorebooks: LOREBOOKS_PER_CONVERSATION_MAX,
      });
      expect((await attached(owner, chat)).lorebooks.map((b) => b.name)).toEqual(["Two", "One"]);
      expect((await a.delete(`/api/lorebooks/${two.id}`, owner)).statusCode).toBe(204);
      expect((await attached(owner, chat)).lorebooks.map((b) => b.name)).toEqual(["One"]);
      expect((await attach(owner, chat, [])).json<ConversationLorebooks>().lorebooks).toEqual([]);
    });

    it(`refuses more than ${LOREBOOKS_PER_CONVERSATION_MAX} books (400), another member's book or chat (404)`, async () => {
      const chat = await newChat(owner);
      const mine = await newBook(owner);
      const many = Array.from({ length: LOREBOOKS_PER_CONVERSATION_MAX + 1 }, () => randomUUID());
      const tooMany = await attach(owner, chat, many);
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toMatchObject({ code: "invalidRequest" });

      const eve = await personAs(h, "premium", "Eve");
      const hers = await newBook(eve);
      const evesChat = await newChat(eve);
      for (const res of [
        await attach(owner, chat, [mine.id, hers.id]),
        await attach(owner, chat, [randomUUID()]),
        await attach(eve, chat, [hers.id]),
        await a.get(`/api/conversations/${chat}/lorebooks`, eve),
        await attach(owner, evesChat, [mine.id]),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject({ code: "notFound" });
      }
      expect((await attached(owner, chat)).lorebooks).toEqual([]);
    });

    it("a clone keeps the attached books", async () => {
      const chat = await newChat(owner);
      const book = await newBook(owner);
      expect((await attach(owner, chat, [book.id])).statusCode).toBe(200);
      const res = await a.post(`/api/conversations/${chat}/clone`, { label: "Copy", mode: "full" }, owner);
      expect(res.statusCode, res.body).toBe(201);
      const cloneId = res.json<{ conversation: { id: string } }>().conversation.id;
      expect((await attached(owner, cloneId)).lorebooks.map((b) => b.id)).toEqual([book.id]);
    });

    it("puts an attached book's activated entry in a real reply's prompt, named in the prompt report", async () => {
      const chat = await newChat(owner);
      const book = await newBook(owner);
      expect((await attach(owner, chat, [book.id])).statusCode).toBe(200);
      const res = await fetch(`${base}/api/generate`, {
        method: "POST",
        headers: { cookie: owner.cookie as string, "content-type": "application/json" },
        body: JSON.stringify({
          type: "text",
          conversation_id: chat,
          action: "send",
          content: "Tell me about the lighthouse.",
          settings: { max_new_tokens: 180, temperature: 0, top_k: 1 },
        }),
      });
      expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
      const done = (await readSse(res)).map((m) => m.event).find((e) => e.type === "done");
      const replyId = done && done.type === "done" ? (done.message?.id as string) : "";
      expect(replyId).not.toBe("");
      const report = (await a.get(`/api/messages/${replyId}/prompt`, owner)).json<PromptReport>();
      // Entry ids are prefixed with their book's: two books may share an entry id.
      expect(report.lore).toEqual([
        { id: `${book.id}:1`, name: "Beacon", position: "after_char", reason: "lighthouse" },
      ]);
    });
  });

  describe("a character's own book", () => {
    const book: LorebookBodyInput = { ...harbor, name: "Mira's harbor" };

    it("is saved with the character, shown to whoever sees the definition, and cleared by null", async () => {
      const creator = await personAs(h, "minimal", "Ada");
      const created = await a.create(creator, {
        character_book: book,
        // Hidden (shared by link): others may open it, and it needs no review before edits.
        visibility: "hidden",
        definition_visible: false,
      });
      const expected = lorebookBody.parse(book);
      expect(created).toMatchObject({ has_lorebook: true, character_book: expected });

      const viewer = await personAs(h, "premium", "Eve");
      const seen = (await a.get(`/api/characters/${created.id}`, viewer)).json<Character>();
      // Withheld like the persona: whether there is a book is not secret, its content is.
      expect(seen).toMatchObject({ definition_hidden: true, has_lorebook: true, character_book: null });
      const admin = await personAs(h, "admin");
      expect((await a.get(`/api/characters/${created.id}`, admin)).json<Character>().character_book).toEqual(
        expected,
      );

      // The card export writes the book as a character_book other tools read.
      const card = await a.get(`/api/characters/${created.id}/export?format=json`, creator);
      expect(card.statusCode, card.body).toBe(200);
      const data = card.json<{ data: { character_book: { name: string; entries: unknown[] } } }>().data;
      expect(data.character_book).toMatchObject({ name: "Mira's harbor", scan_depth: 3, token_budget: 400 });
      expect(data.character_book.entries).toHaveLength(2);

      const edited = { ...book, entries: [{ id: "9", keys: ["tide"], content: "The tide is high." }] };
      const patched = await a.patch(
        `/api/characters/${created.id}?switch=T1`,
        { character_book: edited },
        creator,
      );
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json<Character>().character_book?.entries.map((e) => e.id)).toEqual(["9"]);
      // Other fields alone leave the book as it is.
      const renamed = await a.patch(
        `/api/characters/${created.id}?switch=T1`,
        { title: "Harbor mapper" },
        creator,
      );
      expect(renamed.json<Character>().character_book?.entries.map((e) => e.id)).toEqual(["9"]);

      // A book without entries yet stays a book (the editor shows what was saved; prompts skip it).
      const draft = await a.patch(
        `/api/characters/${created.id}?switch=T1`,
        { character_book: { name: "Draft", entries: [] } },
        creator,
      );
      expect(draft.json<Character>()).toMatchObject({
        has_lorebook: true,
        character_book: { name: "Draft", entries: [] },
      });

      const cleared = await a.patch(
        `/api/characters/${created.id}?switch=T1`,
        { character_book: null },
        creator,
      );
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json<Character>()).toMatchObject({ has_lorebook: false, character_book: null });
    });

    it("a character without a book answers null; a book's edit sends a public bot back to review like any edit", async () => {
      const creator = await personAs(h, "minimal", "Ada");
      const plain = await a.create(creator, { visibility: "public" });
      expect(plain).toMatchObject({ has_lorebook: false, character_book: null });
      // Reviewed and approved, as a moderator would.
      await h.database.db
        .update(characters)
        .set({ moderationStatus: "approved" })
        .where(eq(characters.id, plain.id));
      const patched = await a.patch(
        `/api/characters/${plain.id}?switch=T1`,
        { character_book: book },
        creator,
      );
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json<Character>()).toMatchObject({
        has_lorebook: true,
        moderationReport: { moderation_status: "pending" },
      });
    });
  });
});

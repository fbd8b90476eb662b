import { randomUUID } from "node:crypto";
import {
  type ApiError,
  LOREBOOKS_PER_USER_MAX,
  type Lorebook,
  type LorebookBodyInput,
  type LorebookImportResult,
  type LorebookList,
  type LoreTestResult,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { base64, insertChunks, plainPng, textChunk } from "../characters/cards/test-helpers.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { lorebooks } from "./schema.ts";
import { harbor } from "./test-support.ts";

const worldInfo = {
  entries: {
    "0": {
      uid: 0,
      key: ["Eldoria"],
      comment: "Kingdom",
      content: "Eldoria is a river kingdom.",
      position: 0,
    },
    "3": { uid: 3, key: ["blade"], comment: "Blade", content: "A cursed blade.", position: 4, depth: 2 },
    "4": { uid: 4, key: ["draft"], comment: "Draft", content: "" },
  },
};

const cardJson = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Mira",
    description: "A librarian.",
    first_mes: "Hello.",
    character_book: {
      entries: [{ id: 0, keys: ["map"], content: "Mira's maps are older than the town.", enabled: true }],
    },
  },
};

/** Standalone lorebooks' API on both databases: every role, CRUD, limits, files, the test box. */
describe.each(drivers)("lorebooks on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let owner: Person;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
    owner = await personAs(h, "free", "Sam");
  });
  afterAll(async () => {
    await h.stop();
  });

  const create = async (who: Person, book: LorebookBodyInput = harbor) => {
    const res = await a.post("/api/lorebooks", book, who);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Lorebook>();
  };
  const upload = (who: Person, file: Buffer, filename: string) =>
    a.upload("/api/lorebooks/import", who, file, { filename });
  const imported = async (who: Person, file: Buffer, filename: string) => {
    const res = await upload(who, file, filename);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<LorebookImportResult>();
  };

  describe("who may keep lorebooks", () => {
    const refused: [Role, number, string, string | undefined][] = [
      ["signed out", 401, "unauthorized", undefined],
      ["guest", 403, "forbidden", "lorebooks_not_allowed"],
      ["restricted", 403, "restricted", undefined],
    ];
    it.each(refused)(
      "%s is refused every route (%i %s), before the body is read",
      async (role, status, code, type) => {
        const who = await personAs(h, role);
        const id = randomUUID();
        for (const res of [
          await a.get("/api/lorebooks", who),
          await a.post("/api/lorebooks", { name: 5 }, who),
          await a.get(`/api/lorebooks/${id}`, who),
          await a.put(`/api/lorebooks/${id}`, { entries: "x" }, who),
          await a.delete(`/api/lorebooks/${id}`, who),
          await upload(who, Buffer.from("{}"), "x.json"),
          await a.get(`/api/lorebooks/${id}/export`, who),
          await a.post("/api/lorebooks/test", {}, who),
          await a.get(`/api/conversations/${id}/lorebooks`, who),
          await a.put(`/api/conversations/${id}/lorebooks`, { lorebook_ids: "x" }, who),
        ]) {
          expect(res.statusCode, res.body).toBe(status);
          expect(res.json<ApiError & { error_type?: string }>()).toMatchObject({
            code,
            ...(type ? { error_type: type } : {}),
          });
        }
        if (role === "guest") expect(res0Message(await a.get("/api/lorebooks", who))).toMatch(/sign up/i);
      },
    );

    it.each(["free", "limited", "premium", "admin"] as const)("%s keeps lorebooks", async (role) => {
      const who = await personAs(h, role);
      const book = await create(who);
      const listed = (await a.get("/api/lorebooks", who)).json<LorebookList>();
      expect(listed).toEqual({
        lorebooks: [expect.objectContaining({ id: book.id, name: "Harbor", entry_count: 2 })],
        max_lorebooks: LOREBOOKS_PER_USER_MAX,
      });
    });

    it("never shows or changes another member's book: 404 as for a missing one", async () => {
      const book = await create(owner);
      const other = await personAs(h, "premium", "Eve");
      for (const res of [
        await a.get(`/api/lorebooks/${book.id}`, other),
        await a.put(`/api/lorebooks/${book.id}`, harbor, other),
        await a.delete(`/api/lorebooks/${book.id}`, other),
        await a.get(`/api/lorebooks/${book.id}/export`, other),
        await a.get(`/api/lorebooks/${randomUUID()}`, owner),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject({ code: "notFound", error_type: "lorebook_not_found" });
      }
      expect((await a.get("/api/lorebooks", other)).json<LorebookList>().lorebooks).toEqual([]);
      expect((await a.get(`/api/lorebooks/${book.id}`, owner)).json<Lorebook>().name).toBe("Harbor");
    });
  });

  it("creates with the contract's defaults, reads, replaces and deletes", async () => {
    const who = await personAs(h, "basic");
    const book = await create(who, { name: "  Sparse ", entries: [{ id: "a", content: "Only text." }] });
    expect(book).toMatchObject({ name: "Sparse", description: "", scan_depth: 4, token_budget: 512 });
    expect(book.entries[0]).toMatchObject({
      id: "a",
      enabled: true,
      position: "after_char",
      probability: 100,
    });
    expect((await a.get(`/api/lorebooks/${book.id}`, who)).json<Lorebook>()).toEqual(book);

    const replaced = await a.put(`/api/lorebooks/${book.id}`, harbor, who);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<Lorebook>()).toMatchObject({
      id: book.id,
      name: "Harbor",
      scan_depth: 3,
      entry_count: 2,
    });
    expect(replaced.json<Lorebook>().entries.map((e) => e.id)).toEqual(["1", "2"]);

    expect((await a.delete(`/api/lorebooks/${book.id}`, who)).statusCode).toBe(204);
    expect((await a.get(`/api/lorebooks/${book.id}`, who)).statusCode).toBe(404);
  });

  it("refuses a book without a name, duplicate entry ids and entries without text (400)", async () => {
    for (const body of [
      { ...harbor, name: " " },
      {
        name: "Twins",
        entries: [
          { id: "x", content: "One." },
          { id: "x", content: "Two." },
        ],
      },
      { name: "Blank", entries: [{ id: "x", content: "   " }] },
    ]) {
      const res = await a.post("/api/lorebooks", body, owner);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: "invalidRequest" });
    }
  });

  it(`keeps at most ${LOREBOOKS_PER_USER_MAX} books a member (409), by create or import`, async () => {
    const who = await personAs(h, "minimal");
    const book = { ...harbor, name: "Filler", description: "", scan_depth: 4, token_budget: 512 };
    await h.database.db.insert(lorebooks).values(
      Array.from({ length: LOREBOOKS_PER_USER_MAX }, () => ({
        userId: who.id as string,
        name: "Filler",
        book: { ...book, recursive_scanning: false, entries: [] },
      })),
    );
    for (const res of [
      await a.post("/api/lorebooks", harbor, who),
      await upload(who, Buffer.from(JSON.stringify(worldInfo)), "world.json"),
    ]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: "limitReached", error_type: "lorebook_limit_reached" });
      expect(res0Message(res)).toContain(String(LOREBOOKS_PER_USER_MAX));
    }
  });

  describe("import and export", () => {
    it("imports a SillyTavern world-info file, named from the file, skipping entries without text", async () => {
      const result = await imported(owner, Buffer.from(JSON.stringify(worldInfo)), "Old Kingdom.json");
      expect(result).toMatchObject({ format: "worldinfo", skipped_entries: 1 });
      expect(result.lorebook.name).toBe("Old Kingdom");
      expect(result.lorebook.entries).toMatchObject([
        { id: "0", name: "Kingdom", keys: ["Eldoria"], position: "before_char" },
        { id: "3", name: "Blade", position: "at_depth", depth: 2 },
      ]);
    });

    it("imports the book of a card as JSON and as PNG, and a bare character_book", async () => {
      const json = await imported(owner, Buffer.from(JSON.stringify(cardJson)), "mira.json");
      expect(json).toMatchObject({ format: "card", skipped_entries: 0, lorebook: { name: "Mira lore" } });
      expect(json.lorebook.entries).toMatchObject([
        { keys: ["map"], content: "Mira's maps are older than the town." },
      ]);

      const png = insertChunks(await plainPng(), [textChunk("chara", base64(cardJson))]);
      const fromPng = await imported(owner, png, "mira.png");
      expect(fromPng).toMatchObject({ format: "card", lorebook: { name: "Mira lore" } });
      expect(fromPng.lorebook.entries).toEqual(json.lorebook.entries);

      const bare = { name: "Bare", entries: cardJson.data.character_book.entries };
      const fromBare = await imported(owner, Buffer.from(JSON.stringify(bare)), "b.json");
      expect(fromBare).toMatchObject({
        format: "character_book",
        lorebook: { name: "Bare", entry_count: 1 },
      });
    });

    it("refuses a file that holds no usable lorebook with a message a person understands (400)", async () => {
      const noBook = { ...cardJson, data: { ...cardJson.data, character_book: undefined } };
      const files: [Buffer, string, RegExp][] = [
        [Buffer.from("just some notes, not JSON"), "notes.txt", /not a lorebook/],
        [Buffer.from(JSON.stringify({ hello: "world" })), "x.json", /not a lorebook/],
        [Buffer.from(JSON.stringify(noBook)), "card.json", /no lorebook/],
        [
          Buffer.from(JSON.stringify({ entries: { "0": { key: ["a"], content: "" } } })),
          "w.json",
          /no entries/,
        ],
        [await plainPng(), "plain.png", /./],
      ];
      for (const [file, name, message] of files) {
        const res = await upload(owner, file, name);
        expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: "invalidRequest", error_type: "lorebook_file_unusable" });
        expect(res0Message(res)).toMatch(message);
      }
    });

    it.each(["worldinfo", "character_book"] as const)(
      "exports as %s, which imports back the same book",
      async (format) => {
        const book = await create(owner, { ...harbor, name: 'Harbor: "north"/south' });
        const res = await a.get(`/api/lorebooks/${book.id}/export?format=${format}`, owner);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
        const disposition = String(res.headers["content-disposition"]);
        expect(disposition).toMatch(/^attachment; filename="Harbor_ _north__south(\.character_book)?\.json"/);
        const back = await imported(owner, res.rawPayload, "ignored.json");
        expect(back.format).toBe(format);
        expect(back.lorebook).toMatchObject({ name: book.name, scan_depth: 3, token_budget: 400 });
        expect(back.lorebook.entries).toEqual(book.entries);
      },
    );
  });

  describe("the test box", () => {
    const test = async (book: LorebookBodyInput, text: string) => {
      const res = await a.post("/api/lorebooks/test", { book, text }, owner);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LoreTestResult>();
    };
    const book: LorebookBodyInput = {
      token_budget: 100,
      entries: [
        { id: "and", keys: ["dragon"], secondary_keys: ["fire"], selective: true, content: "Fire dragons." },
        {
          id: "not",
          keys: ["dragon"],
          secondary_keys: ["fire"],
          selective: true,
          logic: "not_any",
          content: "Calm.",
        },
        { id: "always", constant: true, content: "It is winter.", priority: 1000 },
        { id: "regex", keys: ["drag(on|oon)s?"], use_regex: true, content: "Regex hit." },
        { id: "broken", keys: ["(unclosed", "fine"], use_regex: true, content: "Never." },
        { id: "rare", keys: ["dragon"], probability: 10, content: "Rarely." },
        { id: "never", keys: ["dragon"], probability: 0, content: "Not at all." },
        { id: "off", keys: ["dragon"], enabled: false, content: "Disabled." },
        { id: "huge", name: "Huge", keys: ["castle"], priority: 1, content: "stone walls ".repeat(200) },
      ],
    };

    it("reports activations with their reasons, the budget and invalid regex keys, the same every time", async () => {
      const result = await test(book, "A dragon breathes fire.\n\nThen we reach the castle.");
      const byId = Object.fromEntries(result.activated.map((e) => [e.id, e]));
      expect(Object.keys(byId).sort()).toEqual(["always", "and", "rare", "regex"]);
      expect(byId.always).toMatchObject({ reason: "constant", matched_key: null });
      expect(byId.and).toMatchObject({ reason: "key", matched_key: "dragon", position: "after_char" });
      expect(byId.regex).toMatchObject({ reason: "key", matched_key: "drag(on|oon)s?" });
      // Probability is not rolled: a chance above 0 is shown as a hit, with the chance.
      expect(byId.rare).toMatchObject({ probability: 10 });
      expect(result.over_budget).toEqual([{ id: "huge", name: "Huge" }]);
      expect(result.invalid_keys).toEqual([{ id: "broken", key: "(unclosed" }]);
      expect(result.tokens).toBe(result.activated.reduce((sum, e) => sum + e.tokens, 0));
      expect(result.tokens).toBeLessThanOrEqual(100);
      expect(await test(book, "A dragon breathes fire.\n\nThen we reach the castle.")).toEqual(result);
    });

    it("applies NOT logic, and the scan depth to the text's blank-line-separated messages", async () => {
      const calm = await test(book, "A dragon sleeps.");
      expect(calm.activated.map((e) => e.id).sort()).toEqual(["always", "not", "rare", "regex"]);
      // Scan depth 1: only the last message is read.
      const shallow = await test({ ...book, scan_depth: 1 }, "A dragon breathes fire.\n\nQuiet now.");
      expect(shallow.activated.map((e) => e.id)).toEqual(["always"]);
    });

    it("refuses text over the limit (400)", async () => {
      const res = await a.post("/api/lorebooks/test", { book, text: "x".repeat(20_001) }, owner);
      expect(res.statusCode).toBe(400);
    });
  });
});

function res0Message(res: { json: <T>() => T }): string {
  return res.json<ApiError>().message;
}

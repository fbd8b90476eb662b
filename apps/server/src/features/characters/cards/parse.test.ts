import { characterCreate } from "@hearth/contract";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseCard } from "./parse.ts";
import {
  base64,
  characterBook,
  insertChunks,
  iTxtChunk,
  MACRO_GREETING,
  plainPng,
  textChunk,
  v2Card,
  v3Card,
  zTxtChunk,
} from "./test-helpers.ts";

const json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8");

describe("parseCard: JSON cards", () => {
  it("maps a V1 card, personality kept apart from the description", async () => {
    const v1 = {
      name: "Bob",
      description: "{{char}} is a baker.",
      personality: "cheerful",
      scenario: "A bakery.",
      first_mes: "Hello {{user}}!",
      mes_example: "{{user}}: Hi",
      chat: "Bob - 2024-01-01",
      talkativeness: "0.5",
    };
    const { fields, report, extensions, characterBook, avatar } = await parseCard(json(v1), "bob.json");
    expect(fields).toEqual({
      name: "Bob",
      title: "",
      greeting: "Hello {{user}}!",
      persona: "{{char}} is a baker.",
      personality: "cheerful",
      scenario: "A bakery.",
      dialogue: "{{user}}: Hi",
      system_prompt: "",
      post_history_instructions: "",
      creator_notes: "",
      alternate_greetings: [],
      tags: [],
      visibility: "private",
      definition_visible: false,
    });
    expect(report.format).toBe("json_v1");
    expect(report.ignored).toEqual(["V1 fields Hearth does not use: chat, talkativeness"]);
    expect(extensions).toEqual({});
    expect(characterBook).toBeNull();
    expect(avatar).toBeNull();
    expect(() => characterCreate.parse(fields)).not.toThrow();
  });

  it("maps every V2 field, keeps macros verbatim, the lorebook and unknown extensions", async () => {
    const { fields, report, extensions, characterBook: book } = await parseCard(json(v2Card()), "mira.json");
    expect(fields).toMatchObject({
      name: "Mira Valen",
      // The creator notes stay notes: no tagline is made up from them.
      title: "",
      greeting: MACRO_GREETING,
      persona: "{{char}} is a cartographer who maps {{user}}'s dreams.",
      personality: "curious, dry humour",
      dialogue: "<START>\n{{user}}: Where are we?\n{{char}}: Somewhere I have not drawn yet.",
      system_prompt: "Write as {{char}} in third person. {{original}}",
      post_history_instructions: "Stay in character as {{char}}.",
      creator_notes: "A wandering cartographer.\nBest with long replies.",
      alternate_greetings: ["{{char}} waves at {{user}}.", "*The lamp flickers.*"],
      tags: ["Fantasy", "OC", "Slice of Life"],
      visibility: "private",
    });
    expect(book).toEqual(characterBook);
    expect(extensions).toEqual({
      talkativeness: "0.5",
      depth_prompt: { depth: 4, prompt: "{{char}} hums." },
      x_unknown: [1, 2],
      hearth_import: { creator: "alice", character_version: "1.2" },
    });
    expect(report.format).toBe("json_v2");
    expect(report.imported).toEqual([
      "name",
      "greeting (from first_mes)",
      "persona (from description)",
      "personality",
      "scenario",
      "dialogue (from mes_example)",
      "system_prompt",
      "post_history_instructions",
      "creator_notes",
      "alternate_greetings (2)",
      "tags (3)",
      "character_book (1 entries)",
      "extensions (talkativeness, depth_prompt, x_unknown)",
      "kept for export only: creator, character_version",
    ]);
    expect(report.warnings).toEqual([]);
    expect(() => characterCreate.parse(fields)).not.toThrow();
  });

  it("keeps V3-only fields for export and reports group-only greetings as ignored", async () => {
    const card = v3Card({
      creator_notes: "",
      creator_notes_multilingual: { en: "English notes", fr: "Notes" },
    });
    const { fields, report, extensions } = await parseCard(json(card), "mira.json");
    expect(report.format).toBe("json_v3");
    expect(fields.creator_notes).toBe("English notes");
    expect(extensions.hearth_import).toEqual({
      creator: "alice",
      character_version: "1.2",
      nickname: "Mimi",
      group_only_greetings: ["{{char}} greets the whole party."],
      source: ["https://example.org/mira"],
      creation_date: 1_700_000_000,
      x_future_field: { kept: true },
      creator_notes_multilingual: { en: "English notes", fr: "Notes" },
    });
    expect(report.ignored).toContain("group_only_greetings (1): Hearth has no group chats; kept for export");
  });

  it.each([["**A grumpy dragon librarian**\nMore notes"], ["\n\n# Tagline\n"], ["[".repeat(1_000_000)]])(
    "never makes a title of the creator notes %#",
    async (notes) => {
      const { fields } = await parseCard(json(v2Card({ creator_notes: notes })), "t.json");
      expect(fields.title).toBe("");
      expect(fields.creator_notes).toBe(notes.slice(0, 20_000));
    },
  );

  it("takes the title only from Hearth's own extension", async () => {
    const card = v2Card({ extensions: { hearth: { title: "The creator's tagline" } } });
    expect((await parseCard(json(card), "t.json")).fields.title).toBe("The creator's tagline");
  });

  it("normalises tags: trimmed, case kept, deduplicated without case, valid characters, at most 12", async () => {
    const tags = [
      "A",
      "b",
      "B ",
      "sci/fi",
      "x".repeat(33),
      7,
      ...Array.from({ length: 14 }, (_, i) => `t${i}`),
    ];
    const { fields, report } = await parseCard(json(v2Card({ tags })), "t.json");
    expect(fields.tags).toEqual(["A", "b", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"]);
    expect(report.warnings).toEqual([
      `Tags dropped (only letters, digits, spaces and - _ & ' +, at most 32 characters): sci/fi, ${"x".repeat(33)}, (number)`,
      "Tags dropped (only 12 are kept): t10, t11, t12, t13",
    ]);
  });

  it("cuts over-long fields to the contract's limits with a warning", async () => {
    const card = v2Card({
      description: "d".repeat(60_000),
      personality: "",
      first_mes: `a${"😀".repeat(10_000)}`,
    });
    const { fields, report } = await parseCard(json(card), "long.json");
    expect(fields.persona).toBe("d".repeat(50_000));
    // 20,000 UTF-16 units would end inside an emoji: the half pair is dropped.
    expect(fields.greeting).toBe(`a${"😀".repeat(9_999)}`);
    expect(report.warnings).toEqual([
      "greeting had 20001 characters; only the first 20000 were kept.",
      "persona had 60000 characters; only the first 50000 were kept.",
    ]);
    expect(() => characterCreate.parse(fields)).not.toThrow();
  });

  it("keeps at most 50 alternate greetings and drops blank or non-text ones", async () => {
    const greetings = ["", "  ", 3, ...Array.from({ length: 55 }, (_, i) => `g${i}`)];
    const { fields, report } = await parseCard(json(v2Card({ alternate_greetings: greetings })), "g.json");
    expect(fields.alternate_greetings).toHaveLength(50);
    expect(fields.alternate_greetings?.[0]).toBe("g0");
    expect(report.warnings).toEqual([
      "1 alternate greetings were not text and were ignored.",
      "The card has 55 alternate greetings; only the first 50 were kept.",
    ]);
    expect(() => characterCreate.parse(fields)).not.toThrow();
  });

  it("does not let a __proto__ key change any prototype", async () => {
    const text = `{"spec":"chara_card_v2","data":{"name":"P","extensions":{"__proto__":{"polluted":1}},"__proto__":{"x":1}}}`;
    const { extensions } = await parseCard(Buffer.from(text), "p.json");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(extensions)).toBe(Object.prototype);
    expect(Object.hasOwn(extensions, "__proto__")).toBe(true);
  });
});

describe("parseCard: PNG cards", () => {
  it("reads a V2 card from a chara tEXt chunk, the PNG being the avatar", async () => {
    const png = insertChunks(await plainPng(), [textChunk("chara", base64(v2Card()))]);
    const { fields, report, avatar } = await parseCard(png, "mira.png");
    expect(report.format).toBe("png_v2");
    expect(fields.greeting).toBe(MACRO_GREETING);
    expect(avatar).toEqual({ data: png, mimeType: "image/png" });
    expect(report.imported).toContain("avatar (the card image)");
  });

  it("prefers ccv3 over chara when both are present", async () => {
    const png = insertChunks(await plainPng(), [
      textChunk("chara", base64(v2Card({ name: "Old V2" }))),
      textChunk("ccv3", base64(v3Card({ name: "New V3" }))),
    ]);
    const { fields, report } = await parseCard(png, "card.png");
    expect(fields.name).toBe("New V3");
    expect(report.format).toBe("png_v3");
  });

  it("falls back to chara with a warning when ccv3 is broken", async () => {
    const png = insertChunks(await plainPng(), [
      textChunk("ccv3", "%%%not base64%%%"),
      textChunk("chara", base64(v2Card({ name: "Fallback" }))),
    ]);
    const { fields, report } = await parseCard(png, "card.png");
    expect(fields.name).toBe("Fallback");
    expect(report.warnings[0]).toBe(
      "The ccv3 chunk could not be read (The ccv3 chunk of this PNG is not valid base64.); the chara (V2) chunk was used instead.",
    );
  });

  it("reads zTXt and iTXt chunks, keyword case-insensitively", async () => {
    const z = insertChunks(await plainPng(), [zTxtChunk("Chara", base64(v2Card({ name: "Zed" })))]);
    expect((await parseCard(z, "z.png")).fields.name).toBe("Zed");
    const i = insertChunks(await plainPng(), [iTxtChunk("ccv3", base64(v3Card({ name: "Ida" })))]);
    expect((await parseCard(i, "i.png")).fields.name).toBe("Ida");
  });

  it("reports PNG-embedded V3 assets as ignored", async () => {
    const card = v3Card({
      assets: [
        { type: "icon", uri: "ccdefault:", name: "main", ext: "png" },
        { type: "emotion", uri: "__asset:0", name: "happy", ext: "png" },
      ],
    });
    const png = insertChunks(await plainPng(), [
      textChunk("ccv3", base64(card)),
      textChunk("chara-ext-asset_:0", "iVBORw0KGgo="),
    ]);
    const { report } = await parseCard(png, "a.png");
    expect(report.ignored).toContain(
      "1 PNG-embedded assets (chara-ext-asset_ chunks): not used, kept in the card's picture for export",
    );
    expect(report.ignored).toContain(
      "1 assets besides the card image itself: not used, listed again on export",
    );
  });
});

describe("parseCard: CharX", () => {
  it("reads card.json and takes the main icon as the avatar", async () => {
    const icon = await plainPng(16, 16);
    const card = v3Card({
      assets: [
        { type: "background", uri: "embeded://assets/background/images/sea.png", name: "main", ext: "png" },
        { type: "icon", uri: "embeded://assets/icon/images/alt.png", name: "alt", ext: "png" },
        { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
      ],
    });
    const archive = zipSync({
      "card.json": json(card),
      "assets/icon/images/main.png": icon,
      "assets/icon/images/alt.png": await plainPng(4, 4),
      "assets/background/images/sea.png": await plainPng(4, 4),
    });
    const { fields, avatar, report } = await parseCard(Buffer.from(archive), "mira.charx");
    expect(report.format).toBe("charx");
    expect(fields.name).toBe("Mira Valen");
    expect(avatar?.mimeType).toBe("image/png");
    expect(avatar?.data.equals(icon)).toBe(true);
    expect(report.imported).toContain("avatar (assets/icon/images/main.png)");
    expect(report.ignored).toContain(
      "2 assets besides the main icon (background: main, icon: alt): not used, kept for export as CharX",
    );
    expect(report.ignored).toContain(
      "archive files not used (kept for export as CharX): assets/icon/images/alt.png, assets/background/images/sea.png",
    );
  });

  it("accepts __asset: URIs and ignores an icon that is not an image", async () => {
    const card = v3Card({ assets: [{ type: "icon", uri: "__asset:icon.bin", name: "main", ext: "png" }] });
    const archive = zipSync({ "card.json": json(card), "icon.bin": Buffer.from("not an image at all") });
    const { avatar, report } = await parseCard(Buffer.from(archive), "x.charx");
    expect(avatar).toBeNull();
    expect(report.ignored).toContain("main icon icon.bin: not a PNG, JPEG, WebP, GIF or AVIF image");
  });
});

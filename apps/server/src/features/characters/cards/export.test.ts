import { characterCreate } from "@hearth/contract";
import { unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { exportCard, safeFileName } from "./export.ts";
import { parseCard } from "./parse.ts";
import { artHash } from "./source.ts";
import {
  base64,
  characterBook,
  decodeChunk,
  exportable,
  insertChunks,
  plainPng,
  textChunk,
  textChunksOf,
  v2Card,
  v3Card,
} from "./test-helpers.ts";
import type { ExportableCharacter, ParsedCard } from "./types.ts";

const V2_FIELDS = [
  "name",
  "description",
  "personality",
  "scenario",
  "first_mes",
  "mes_example",
  "creator_notes",
  "system_prompt",
  "post_history_instructions",
  "alternate_greetings",
  "tags",
  "creator",
  "character_version",
  "extensions",
];

/** What the characters feature would store and hand back: the parsed card as an exportable one. */
function stored(parsed: ParsedCard): ExportableCharacter {
  return {
    fields: characterCreate.parse(parsed.fields),
    characterBook: parsed.characterBook,
    extensions: parsed.extensions,
    creatorUsername: "importer",
    avatar: parsed.avatar,
    art: parsed.art ? { data: parsed.art, mimeType: "image/png" } : null,
    source: {
      ...parsed.source,
      archive: parsed.archive,
      ...(parsed.art ? { artSha256: artHash(parsed.art) } : {}),
    },
    createdAt: new Date("2024-01-01T00:00:00Z"),
    updatedAt: new Date("2024-02-01T00:00:00Z"),
  };
}

/**
 * Import → export → import gives the same character, lorebook and extensions. The extensions
 * may gain V3 fields the export filled in (creation_date, group_only_greetings), hence toMatchObject.
 */
async function expectRoundTrip(first: ParsedCard, format: "png" | "json" | "charx") {
  const exported = await exportCard(stored(first), format);
  const second = await parseCard(exported.body, exported.filename);
  // Compared as stored (contract defaults applied): the export writes language explicitly.
  expect(characterCreate.parse(second.fields)).toEqual(characterCreate.parse(first.fields));
  expect(second.characterBook).toEqual(first.characterBook);
  expect(second.extensions).toMatchObject(first.extensions);
  return { exported, second };
}

describe("exportCard: round trips", () => {
  it("PNG V2 → Hearth → PNG with both chunks → the same character", async () => {
    const source = insertChunks(await plainPng(), [textChunk("chara", base64(v2Card()))]);
    const first = await parseCard(source, "mira.png");
    const { exported, second } = await expectRoundTrip(first, "png");
    expect(exported.contentType).toBe("image/png");
    expect(exported.filename).toBe("Mira Valen.png");
    const chunks = textChunksOf(exported.body);
    expect([...chunks.keys()].sort()).toEqual(["ccv3", "chara"]);
    const v2 = decodeChunk(chunks.get("chara"));
    expect(v2.spec).toBe("chara_card_v2");
    expect(v2.data.creator).toBe("alice");
    expect(v2.data.character_book).toEqual(characterBook);
    expect(decodeChunk(chunks.get("ccv3")).spec).toBe("chara_card_v3");
    expect(second.report.format).toBe("png_v3"); // ccv3 preferred on re-import
  });

  it("PNG V3 round trip keeps V3-only fields (nickname, source, group greetings, creation date)", async () => {
    const source = insertChunks(await plainPng(), [textChunk("ccv3", base64(v3Card()))]);
    const first = await parseCard(source, "mira.png");
    const { exported } = await expectRoundTrip(first, "png");
    const v3 = decodeChunk(textChunksOf(exported.body).get("ccv3"));
    expect(v3.data).toMatchObject({
      nickname: "Mimi",
      source: ["https://example.org/mira"],
      group_only_greetings: ["{{char}} greets the whole party."],
      creation_date: 1_700_000_000,
      // Nothing was changed in Hearth: the card's own date stays.
      modification_date: 1_700_000_500,
      x_future_field: { kept: true },
      assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
    });
    expect(v3.data.extensions.hearth_import).toBeUndefined();
  });

  it.each([
    ["V1", { name: "Bob", description: "{{char}} bakes.", personality: "kind", first_mes: "Hi {{user}}" }],
    ["V2", v2Card()],
    ["V3", v3Card()],
  ])("JSON %s → Hearth → JSON in the same version → the same character", async (label, card) => {
    const first = await parseCard(Buffer.from(JSON.stringify(card)), "card.json");
    const { exported } = await expectRoundTrip(first, "json");
    expect(exported.contentType).toBe("application/json; charset=utf-8");
    const written = JSON.parse(exported.body.toString("utf8"));
    if (label === "V1") {
      expect(written).toEqual(card);
      return;
    }
    expect(written).toMatchObject({ spec: (card as { spec: string }).spec });
    // Every V2 field is present so V2-only readers get the whole character.
    for (const key of V2_FIELDS) expect(written.data).toHaveProperty(key);
  });

  it("CharX with an avatar → Hearth → CharX → the same character and avatar", async () => {
    const icon = await plainPng(20, 10);
    const card = v3Card({
      assets: [{ type: "icon", uri: "embeded://img/me.png", name: "main", ext: "png" }],
    });
    const source = Buffer.from(
      zipSync({ "card.json": Buffer.from(JSON.stringify(card)), "img/me.png": icon }),
    );
    const first = await parseCard(source, "mira.charx");
    const { exported, second } = await expectRoundTrip(first, "charx");
    expect(exported.filename).toBe("Mira Valen.charx");
    expect(exported.contentType).toBe("application/zip");
    const files = unzipSync(exported.body);
    // The archive's own files and assets list come back as they were.
    expect(Object.keys(files).sort()).toEqual(["card.json", "img/me.png"]);
    expect(Buffer.from(files["img/me.png"] ?? []).equals(icon)).toBe(true);
    const written = JSON.parse(Buffer.from(files["card.json"] ?? []).toString("utf8"));
    expect(written.data.assets).toEqual([
      { type: "icon", uri: "embeded://img/me.png", name: "main", ext: "png" },
    ]);
    expect(second.avatar?.mimeType).toBe("image/png");
    const meta = await sharp(second.avatar?.data).metadata();
    expect([meta.width, meta.height]).toEqual([20, 10]);
  });
});

describe("exportCard: content", () => {
  it("writes Hearth's profile fields under extensions.hearth and reads them back", async () => {
    const exported = await exportCard(exportable(), "json");
    const card = JSON.parse(exported.body.toString("utf8"));
    expect(card.data.extensions).toEqual({
      depth_prompt: { depth: 4, prompt: "x" },
      hearth: { title: "A wandering cartographer", language: "fr", is_nsfw: true, avatar_is_nsfw: false },
    });
    expect(card.data).toMatchObject({
      description: "{{char}} maps dreams.",
      personality: "curious",
      first_mes: "*{{char}} looks up from the map.* Oh, {{user}}! You made it. <USER> <BOT>",
      creator: "hearth_user",
      character_version: "",
      group_only_greetings: [],
      creation_date: Date.parse("2024-01-02T03:04:05Z") / 1000,
      character_book: characterBook,
    });
    const back = await parseCard(exported.body, exported.filename);
    expect(back.fields).toMatchObject({ title: "A wandering cartographer", language: "fr", is_nsfw: true });
    expect(back.fields.visibility).toBe("private");
    expect(back.extensions).toEqual({
      depth_prompt: { depth: 4, prompt: "x" },
      hearth_import: {
        creator: "hearth_user",
        character_version: "",
        group_only_greetings: [],
        creation_date: 1704164645,
      },
    });
  });

  it("omits character_book when there is none", async () => {
    const card = JSON.parse(
      (await exportCard(exportable({ characterBook: null }), "json")).body.toString("utf8"),
    );
    expect(card.data).not.toHaveProperty("character_book");
  });

  it("draws a 400x600 portrait (not a flat square) when there is no picture, and converts a WebP avatar", async () => {
    const placeholder = await exportCard(exportable({ avatar: null }), "png");
    expect(await sharp(placeholder.body).metadata()).toMatchObject({
      format: "png",
      width: 400,
      height: 600,
    });
    // A gradient with initials and the name drawn on it: far from one colour.
    const { channels } = await sharp(placeholder.body).stats();
    expect(Math.max(...channels.slice(0, 3).map((c) => c.stdev))).toBeGreaterThan(10);
    const webp = await sharp({ create: { width: 30, height: 40, channels: 3, background: "#123456" } })
      .webp()
      .toBuffer();
    const converted = await exportCard(exportable({ avatar: { data: webp, mimeType: "image/webp" } }), "png");
    expect(await sharp(converted.body).metadata()).toMatchObject({ format: "png", width: 30, height: 40 });
    expect((await parseCard(converted.body, "x.png")).fields.name).toBe("Mira Valen");
  });

  it("replaces card chunks an avatar PNG already carried", async () => {
    const stale = insertChunks(await plainPng(), [textChunk("chara", base64(v2Card({ name: "Stale" })))]);
    const exported = await exportCard(exportable({ avatar: { data: stale, mimeType: "image/png" } }), "png");
    expect((await parseCard(exported.body, "x.png")).fields.name).toBe("Mira Valen");
  });

  it("writes a CharX with the generated portrait as its icon when there is no picture", async () => {
    const exported = await exportCard(exportable(), "charx");
    const files = unzipSync(exported.body);
    expect(Object.keys(files).sort()).toEqual(["assets/icon/images/main.png", "card.json"]);
    const back = await parseCard(exported.body, "x.charx");
    expect(await sharp(back.avatar?.data).metadata()).toMatchObject({ width: 400, height: 600 });
  });

  it.each([
    ["Mira Valen", "Mira Valen"],
    ["../../etc/passwd", "etc passwd"],
    ['a<b>c:"d"|e?f*g\\h', "a b c d e f g h"],
    ["  ..hidden.. ", "hidden"],
    ["line\nbreak\u0000nul\u202Ertl", "line break nul rtl"],
    ["CON", "CON_"],
    ["...", "character"],
    ["日本語の名前", "日本語の名前"],
    ["😀".repeat(100), "😀".repeat(80)],
  ])("file name for %j is %j", (name, expected) => {
    expect(safeFileName(name)).toBe(expected);
  });
});

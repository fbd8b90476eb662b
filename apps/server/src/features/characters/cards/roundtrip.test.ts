import { characterCreate } from "@hearth/contract";
import { unzipSync } from "fflate";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { displayTags } from "../present.ts";
import { tagLabels } from "../service.ts";
import { isRecord } from "./card-json.ts";
import { exportCard } from "./export.ts";
import { parseCard } from "./parse.ts";
import { withCardTextChunks } from "./png.ts";
import { type CorpusCard, corpus, fullV3Data, portraitPngFile } from "./roundtrip-corpus.ts";
import { artHash, readCardData } from "./source.ts";
import { decodeChunk, plainPng, textChunksOf } from "./test-helpers.ts";
import type { ExportableCharacter, ParsedCard } from "./types.ts";

/**
 * Lossless round trip (issue 19): a card imported and exported in the same container comes back
 * with every field as it was, for a corpus of every version and container.
 */

/** What PostgreSQL's jsonb does to objects: keys come back in another order. */
function jsonbLike(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbLike);
  if (!isRecord(value)) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return Object.fromEntries(keys.map((k) => [k, jsonbLike(value[k])]));
}

const UPDATED = new Date("2025-03-04T05:06:07Z");

/** The character as the characters feature stores and reads it back (service.ts, present.ts). */
function stored(parsed: ParsedCard): ExportableCharacter {
  const { character_book: _book, ...fields } = characterCreate.parse(parsed.fields);
  const labels = tagLabels(fields.tags);
  // Stored as JSON text and read back, as the characters feature does (cards/source.ts).
  const data = readCardData(Buffer.from(JSON.stringify(parsed.source.data)));
  const source = data && {
    version: parsed.source.version,
    data,
    ...(parsed.art ? { artSha256: artHash(parsed.art) } : {}),
  };
  return {
    fields: { ...fields, tags: displayTags({ tags: labels.map((t) => t.toLowerCase()), tagLabels: labels }) },
    characterBook: jsonbLike(parsed.characterBook),
    extensions: jsonbLike(parsed.extensions) as Record<string, unknown>,
    creatorUsername: "importer",
    avatar: null,
    art: parsed.art ? { data: parsed.art, mimeType: "image/png" } : null,
    source: source && { ...source, archive: parsed.archive },
    createdAt: new Date("2025-01-01T00:00:00Z"),
    updatedAt: UPDATED,
  };
}

interface Written {
  /** The card in the file: for JSON, in the imported card's version (a V1 card is flat). */
  v3: { spec?: string; data: Record<string, unknown> };
  v2?: { spec: string; data: Record<string, unknown> };
  files?: Record<string, Uint8Array>;
}

/** The card(s) inside an exported file, read without the card reader. */
function readExport(body: Buffer, container: CorpusCard["container"]): Written {
  if (container === "json") return { v3: JSON.parse(body.toString("utf8")) };
  if (container === "png") {
    const chunks = textChunksOf(body);
    return { v3: decodeChunk(chunks.get("ccv3")), v2: decodeChunk(chunks.get("chara")) };
  }
  const files = unzipSync(body);
  return { v3: JSON.parse(Buffer.from(files["card.json"] ?? []).toString("utf8")), files };
}

/** Field by field: every key of the source card, equal, in the card's own order. */
function expectSameData(written: Record<string, unknown>, original: Record<string, unknown>, label: string) {
  for (const [key, value] of Object.entries(original)) {
    expect(written[key], `${label}: ${key}`).toEqual(value);
  }
  expect(Object.keys(written).slice(0, Object.keys(original).length), `${label}: key order`).toEqual(
    Object.keys(original),
  );
  // Unknown extensions (and the lorebook) byte for byte, as serialised.
  for (const key of ["extensions", "character_book"]) {
    if (key in original) {
      expect(JSON.stringify(written[key]), `${label}: ${key} bytes`).toBe(JSON.stringify(original[key]));
    }
  }
}

const V2_KEYS = new Set([
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
  "character_book",
  "extensions",
]);

describe("lossless card round trip: import then export in the same container", async () => {
  const cards = await corpus();

  it("covers every version and container", () => {
    const kinds = new Set(cards.map((c) => `${c.container}:${c.card.spec ?? "v1"}`));
    for (const kind of [
      "json:v1",
      "png:v1",
      "json:chara_card_v2",
      "png:chara_card_v2",
      "json:chara_card_v3",
      "png:chara_card_v3",
      "charx:chara_card_v3",
      "charx:chara_card_v2",
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it.each(cards.map((c) => [c.label, c] as const))("%s", async (label, c) => {
    const parsed = await parseCard(c.file, `card.${c.container}`);
    const exported = await exportCard(stored(parsed), c.container);
    const written = readExport(exported.body, c.container);
    const isV1 = c.card.spec === undefined;
    const original = isV1 ? c.card : (c.card.data as Record<string, unknown>);
    if (c.container === "json" && isV1) {
      // A V1 file comes back as V1: the same flat object, key for key.
      expect(JSON.stringify(written.v3), label).toBe(JSON.stringify(c.card));
    } else if (c.container === "json") {
      expect(written.v3.spec, label).toBe(c.card.spec);
      expectSameData(written.v3.data, original, label);
    } else {
      expect(written.v3.spec).toBe("chara_card_v3");
      expectSameData(written.v3.data, original, label);
    }
    if (written.v2) {
      expect(written.v2.spec).toBe("chara_card_v2");
      // The V2 copy holds the V2 fields only, each as the card had it.
      const v2Original = Object.fromEntries(Object.entries(original).filter(([k]) => V2_KEYS.has(k)));
      for (const [key, value] of Object.entries(v2Original)) {
        expect(written.v2.data[key], `${label} (chara): ${key}`).toEqual(value);
      }
    }
    if (c.container === "png") {
      // The picture is the card's own, every byte but the card text.
      expect(withCardTextChunks(exported.body, []).equals(withCardTextChunks(c.file, []))).toBe(true);
      expect(await sharp(exported.body).metadata()).toMatchObject({ width: 400, height: 600 });
    }
    for (const [path, data] of Object.entries(c.files ?? {})) {
      expect(Buffer.from(written.files?.[path] ?? []).equals(data), `${label}: ${path}`).toBe(true);
    }
  });
});

describe("lossless card round trip: what changed in Hearth", () => {
  let parsed: ParsedCard;
  beforeAll(async () => {
    const card = { spec: "chara_card_v3", spec_version: "3.0", data: fullV3Data() };
    parsed = await parseCard(await portraitPngFile(card, ["ccv3"]), "zoe.png");
  });

  it("writes edited fields from Hearth, keeps the rest as the card had it, and dates the change", async () => {
    const character = stored(parsed);
    character.fields = {
      ...character.fields,
      personality: "changed",
      tags: ["New Tag", "White Hair"],
      title: "Mine",
    };
    const exported = await exportCard(character, "png");
    const { data } = decodeChunk(textChunksOf(exported.body).get("ccv3"));
    const original = fullV3Data();
    expect(data.personality).toBe("changed");
    expect(data.tags).toEqual(["New Tag", "White Hair"]);
    expect(data.extensions.hearth).toMatchObject({ title: "Mine" });
    for (const key of [
      "description",
      "alternate_greetings",
      "creator_notes",
      "nickname",
      "source",
      "creation_date",
    ]) {
      expect(data[key], key).toEqual(original[key]);
    }
    expect(data.modification_date).toBe(UPDATED.getTime() / 1000);
    // Read back into Hearth: the creator's tagline is theirs, the notes stay notes.
    const back = await parseCard(exported.body, "zoe.png");
    expect(back.fields).toMatchObject({
      title: "Mine",
      personality: "changed",
      creator_notes: original.creator_notes,
    });
  });

  it("writes a V1 or V2 JSON card in its own version, and V1 as V2 once it holds more than V1 can", async () => {
    const v1 = {
      name: "Ada",
      description: "d",
      personality: "p",
      scenario: "s",
      first_mes: "hi",
      mes_example: "",
    };
    const fromV1 = stored(await parseCard(Buffer.from(JSON.stringify(v1)), "ada.json"));
    fromV1.fields = { ...fromV1.fields, tags: ["Kind"] };
    const asV2 = JSON.parse((await exportCard(fromV1, "json")).body.toString("utf8"));
    expect(asV2).toMatchObject({
      spec: "chara_card_v2",
      data: { name: "Ada", personality: "p", tags: ["Kind"] },
    });

    const v2 = { spec: "chara_card_v2", spec_version: "2.0", data: { ...fullV3Data(), nickname: undefined } };
    const fromV2 = stored(await parseCard(Buffer.from(JSON.stringify(v2)), "zoe.json"));
    fromV2.fields = { ...fromV2.fields, personality: "changed" };
    const written = JSON.parse((await exportCard(fromV2, "json")).body.toString("utf8"));
    expect(written.spec).toBe("chara_card_v2");
    expect(written.data).toMatchObject({ personality: "changed", description: fullV3Data().description });
    // A bot made in Hearth is V3.
    const made = { ...fromV2, source: null };
    expect(JSON.parse((await exportCard(made, "json")).body.toString("utf8")).spec).toBe("chara_card_v3");
  });

  it("exports a replaced picture (at its own size), with Hearth's assets list", async () => {
    const character = stored(parsed);
    character.art = { data: await plainPng(300, 200), mimeType: "image/png" };
    const exported = await exportCard(character, "png");
    expect(await sharp(exported.body).metadata()).toMatchObject({ width: 300, height: 200 });
    const { data } = decodeChunk(textChunksOf(exported.body).get("ccv3"));
    expect(data.assets).toEqual([{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }]);
  });

  it("keeps the card's values through a character stored before this change (no source)", async () => {
    const character = { ...stored(parsed), source: null };
    const { data } = decodeChunk(textChunksOf((await exportCard(character, "png")).body).get("ccv3"));
    expect(data).toMatchObject({ personality: fullV3Data().personality, tags: parsed.fields.tags });
  });
});

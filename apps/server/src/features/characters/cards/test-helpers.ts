import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import type { ExportableCharacter } from "./types.ts";

/**
 * Fixtures for the card tests, built in code (no binary fixtures). The PNG chunk code here is
 * deliberately independent of png.ts so the tests do not share its mistakes.
 */

export const MACRO_GREETING = "*{{char}} looks up from the map.* Oh, {{user}}! You made it. <USER> <BOT>";

export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

export const textChunk = (keyword: string, text: string) =>
  pngChunk("tEXt", Buffer.concat([Buffer.from(`${keyword}\0`, "latin1"), Buffer.from(text, "latin1")]));

export const zTxtChunk = (keyword: string, text: string) =>
  pngChunk(
    "zTXt",
    Buffer.concat([Buffer.from(`${keyword}\0\0`, "latin1"), deflateSync(Buffer.from(text, "latin1"))]),
  );

export const iTxtChunk = (keyword: string, text: string) =>
  pngChunk("iTXt", Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, "latin1"), Buffer.from(text, "utf8")]));

export const base64 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** A small real PNG (decodable by sharp). */
export function plainPng(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
}

/** Inserts chunks right after IHDR (signature 8 bytes + IHDR 25 bytes). */
export function insertChunks(png: Buffer, chunks: Buffer[]): Buffer {
  return Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);
}

/** Every tEXt chunk of a PNG, keyword → text, read without png.ts. */
export function textChunksOf(png: Buffer): Map<string, string> {
  const found = new Map<string, string>();
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    if (type === "tEXt") {
      const data = png.subarray(at + 8, at + 8 + length);
      const nul = data.indexOf(0);
      found.set(data.toString("latin1", 0, nul), data.toString("latin1", nul + 1));
    }
    at += 12 + length;
  }
  return found;
}

export const decodeChunk = (text: string | undefined) =>
  JSON.parse(Buffer.from(text ?? "", "base64").toString("utf8"));

export const characterBook = {
  name: "Atlas lore",
  scan_depth: 3,
  extensions: { custom_book_flag: true },
  entries: [
    {
      keys: ["Vell", "harbour"],
      content: "{{char}} grew up in Vell, a harbour town.",
      extensions: { position: 1, nested: { a: [1, 2, { b: "c" }] } },
      enabled: true,
      insertion_order: 10,
      use_regex: false,
      id: 0,
      comment: "home town",
    },
  ],
};

/** A complete V2 card with macros, a lorebook and unknown extensions. */
export function v2Card(overrides: Record<string, unknown> = {}) {
  return {
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      name: "Mira Valen",
      description: "{{char}} is a cartographer who maps {{user}}'s dreams.",
      personality: "curious, dry humour",
      scenario: "A lighthouse at the edge of the known map.",
      first_mes: MACRO_GREETING,
      mes_example: "<START>\n{{user}}: Where are we?\n{{char}}: Somewhere I have not drawn yet.",
      creator_notes: "A wandering cartographer.\nBest with long replies.",
      system_prompt: "Write as {{char}} in third person. {{original}}",
      post_history_instructions: "Stay in character as {{char}}.",
      alternate_greetings: ["{{char}} waves at {{user}}.", "*The lamp flickers.*"],
      tags: [" Fantasy", "OC", "fantasy", "Slice of Life"],
      creator: "alice",
      character_version: "1.2",
      character_book: characterBook,
      extensions: {
        talkativeness: "0.5",
        depth_prompt: { depth: 4, prompt: "{{char}} hums." },
        x_unknown: [1, 2],
      },
      ...overrides,
    },
  };
}

export function v3Card(overrides: Record<string, unknown> = {}) {
  const v2 = v2Card();
  return {
    spec: "chara_card_v3",
    spec_version: "3.0",
    data: {
      ...v2.data,
      nickname: "Mimi",
      group_only_greetings: ["{{char}} greets the whole party."],
      source: ["https://example.org/mira"],
      creation_date: 1_700_000_000,
      modification_date: 1_700_000_500,
      x_future_field: { kept: true },
      ...overrides,
    },
  };
}

export function exportable(overrides: Partial<ExportableCharacter> = {}): ExportableCharacter {
  return {
    fields: {
      name: "Mira Valen",
      title: "A wandering cartographer",
      greeting: MACRO_GREETING,
      persona: "{{char}} maps dreams.",
      personality: "curious",
      scenario: "A lighthouse.",
      dialogue: "{{user}}: Hi\n{{char}}: Hello.",
      tags: ["fantasy", "oc"],
      avatar_is_nsfw: false,
      definition_visible: true,
      visibility: "public",
      language: "fr",
      is_nsfw: true,
      alternate_greetings: ["Second {{char}}"],
      system_prompt: "Be {{char}}.",
      post_history_instructions: "Stay {{char}}.",
      creator_notes: "Notes for {{user}}.",
    },
    characterBook: characterBook,
    extensions: { depth_prompt: { depth: 4, prompt: "x" } },
    creatorUsername: "hearth_user",
    avatar: null,
    art: null,
    source: null,
    createdAt: new Date("2024-01-02T03:04:05Z"),
    updatedAt: new Date("2024-05-06T07:08:09Z"),
    ...overrides,
  };
}

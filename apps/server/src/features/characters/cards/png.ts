import { crc32, inflateSync } from "node:zlib";
import { cardTooLarge, MAX_CARD_JSON_BYTES } from "./limits.ts";
import { CardError } from "./types.ts";

/**
 * Just enough PNG to read and write the text chunks that carry a character card. Hand-written
 * rather than a dependency so that every length is bounds-checked, every CRC verified, and a
 * compressed text chunk cannot inflate past the card size limit.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** base64 of the largest card JSON we accept, plus room for line breaks some tools add. */
const MAX_CHUNK_TEXT_BYTES = Math.ceil(MAX_CARD_JSON_BYTES / 3) * 4 + 64 * 1024;
/** The keywords that hold a card: `chara` (V1/V2 JSON) and `ccv3` (V3 JSON), both base64. */
export const CARD_KEYWORDS = ["chara", "ccv3"] as const;
export type CardKeyword = (typeof CARD_KEYWORDS)[number];
const TEXT_CHUNK_TYPES = new Set(["tEXt", "zTXt", "iTXt"]);
/**
 * Real PNGs hold tens to a few thousand chunks (image data split in blocks); a file of a million
 * empty ones is only there to keep the server busy, so the walk stops long before that.
 */
export const MAX_PNG_CHUNKS = 20_000;

export function isPng(file: Buffer): boolean {
  return file.length >= SIGNATURE.length && file.subarray(0, SIGNATURE.length).equals(SIGNATURE);
}

interface ChunkVisit {
  type: string;
  data: Buffer;
  /** Byte range of the whole chunk (length, type, data and CRC) in the file. */
  start: number;
  end: number;
}

/**
 * Walks the chunks up to IEND, refusing truncated files, impossible lengths and CRC errors.
 * Chunks are visited, not collected: a file of a million empty chunks costs no memory.
 */
function walkChunks(file: Buffer, visit: (chunk: ChunkVisit) => void): void {
  if (!isPng(file)) throw new CardError("This file is not a PNG image.", 415);
  let offset = SIGNATURE.length;
  for (let chunks = 0; offset + 12 <= file.length; chunks++) {
    if (chunks >= MAX_PNG_CHUNKS) {
      throw new CardError(
        `The PNG has more than ${MAX_PNG_CHUNKS.toLocaleString("en-US")} chunks, which no real image needs.`,
      );
    }
    const length = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new CardError("The PNG is damaged: a chunk has an invalid type.");
    const dataEnd = offset + 8 + length;
    if (length > 0x7fffffff || dataEnd + 4 > file.length) {
      throw new CardError(`The PNG is truncated: its ${type} chunk runs past the end of the file.`);
    }
    if (crc32(file.subarray(offset + 4, dataEnd)) !== file.readUInt32BE(dataEnd)) {
      throw new CardError(`The PNG is damaged: its ${type} chunk fails its checksum (CRC).`);
    }
    visit({ type, data: file.subarray(offset + 8, dataEnd), start: offset, end: dataEnd + 4 });
    offset = dataEnd + 4;
    if (type === "IEND") return;
  }
  throw new CardError("The PNG is truncated: it has no IEND chunk.");
}

function keywordOf(data: Buffer): { keyword: string; rest: Buffer } | null {
  const nul = data.indexOf(0);
  if (nul < 1 || nul > 79) return null;
  return { keyword: data.toString("latin1", 0, nul), rest: data.subarray(nul + 1) };
}

function inflateText(compressed: Buffer): Buffer {
  try {
    return inflateSync(compressed, { maxOutputLength: MAX_CHUNK_TEXT_BYTES });
  } catch (error) {
    if (error instanceof RangeError) {
      throw cardTooLarge();
    }
    throw new CardError("The PNG is damaged: a compressed text chunk cannot be read.");
  }
}

/** The text of a tEXt, zTXt or iTXt chunk (see the PNG specification, section 11.3.4). */
function decodeTextChunk(type: string, rest: Buffer): string {
  if (type === "tEXt") return rest.toString("latin1");
  if (type === "zTXt") {
    if (rest[0] !== 0) throw new CardError("The PNG is damaged: unknown text compression method.");
    return inflateText(rest.subarray(1)).toString("latin1");
  }
  // iTXt: compression flag, compression method, language tag\0, translated keyword\0, UTF-8 text.
  const compressed = rest[0] === 1;
  const langEnd = rest.indexOf(0, 2);
  const translatedEnd = langEnd < 0 ? -1 : rest.indexOf(0, langEnd + 1);
  if (rest.length < 2 || translatedEnd < 0) {
    throw new CardError("The PNG is damaged: an iTXt chunk is malformed.");
  }
  const text = rest.subarray(translatedEnd + 1);
  return (compressed ? inflateText(text) : text).toString("utf8");
}

export interface PngCardText {
  /** The first `chara` / `ccv3` text (keyword matched case-insensitively, as SillyTavern does). */
  texts: Partial<Record<CardKeyword, string>>;
  /** Keywords of the other text chunks, e.g. `chara-ext-asset_:0` (V3 PNG-embedded assets). */
  otherKeywords: string[];
}

export function readPngCardText(file: Buffer): PngCardText {
  const result: PngCardText = { texts: {}, otherKeywords: [] };
  walkChunks(file, ({ type, data }) => {
    if (!TEXT_CHUNK_TYPES.has(type)) return;
    const parsed = keywordOf(data);
    if (!parsed) return;
    const keyword = parsed.keyword.toLowerCase();
    if (keyword !== "chara" && keyword !== "ccv3") {
      result.otherKeywords.push(parsed.keyword);
      return;
    }
    if (result.texts[keyword] !== undefined) return;
    // The raw chunk length bounds tEXt; zTXt/iTXt inflation is bounded inside decodeTextChunk.
    if (parsed.rest.length > MAX_CHUNK_TEXT_BYTES) {
      throw cardTooLarge();
    }
    result.texts[keyword] = decodeTextChunk(type, parsed.rest);
  });
  return result;
}

function encodeChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/**
 * Returns the PNG with the given tEXt chunks placed before IEND, after removing any card text
 * chunks it already had (an avatar exported from another tool may carry a stale card).
 */
export function withCardTextChunks(
  png: Buffer,
  texts: Array<{ keyword: CardKeyword; text: string }>,
): Buffer {
  const kept: Buffer[] = [png.subarray(0, SIGNATURE.length)];
  const added = texts.map(({ keyword, text }) =>
    encodeChunk(
      "tEXt",
      Buffer.concat([Buffer.from(keyword, "latin1"), Buffer.from([0]), Buffer.from(text, "latin1")]),
    ),
  );
  walkChunks(png, ({ type, data, start, end }) => {
    const keyword = TEXT_CHUNK_TYPES.has(type) ? keywordOf(data)?.keyword.toLowerCase() : undefined;
    if (keyword === "chara" || keyword === "ccv3") return;
    if (type === "IEND") kept.push(...added);
    kept.push(png.subarray(start, end));
  });
  return Buffer.concat(kept);
}

import { type LorebookBody, type LorebookImportResult, lorebookCreate } from "@hearth/contract";
import { HttpError } from "../../http/errors.ts";
import { rawEntryCount, readLorebook } from "./book.ts";
import { unusableFile } from "./policy.ts";
import { toLorebookBody } from "./wire.ts";

/** The characters feature's card reader (handed over by app.ts): PNG, JSON or CharX cards. */
export type ReadCard = (
  file: Buffer,
  filename: string,
) => Promise<{ fields: { name: string }; characterBook: unknown | null }>;

export interface ReadLorebookFile {
  body: LorebookBody;
  format: LorebookImportResult["format"];
  skipped: number;
}

const NOT_A_LOREBOOK =
  "This file is not a lorebook. Choose a SillyTavern world-info JSON file, a character card (PNG or JSON) that has a lorebook, or a character_book JSON file.";
const NO_BOOK_IN_CARD = "This character card has no lorebook.";
const NO_ENTRIES = "This lorebook has no entries with text, so there is nothing to import.";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isPng = (data: Buffer) => data.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
const isZip = (data: Buffer) => data.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

/** "Harbor lore.json" → "Harbor lore". */
const stem = (filename: string) =>
  filename
    .replace(/^.*[\\/]/, "")
    .replace(/\.[^.]*$/, "")
    .trim();

/** Where the book sits in a parsed JSON file, and what kind of file it is. */
function locate(json: unknown): { raw: unknown; format: ReadLorebookFile["format"]; name: string } {
  if (!isRecord(json)) throw unusableFile(NOT_A_LOREBOOK);
  // A V2/V3 card: { spec, data: { name, character_book } }.
  if (isRecord(json.data) && (typeof json.spec === "string" || "character_book" in json.data)) {
    if (!isRecord(json.data.character_book)) throw unusableFile(NO_BOOK_IN_CARD);
    const name = typeof json.data.name === "string" ? `${json.data.name} lore` : "";
    return { raw: json.data.character_book, format: "card", name };
  }
  if (isRecord(json.character_book)) {
    const name = typeof json.name === "string" ? `${json.name} lore` : "";
    return { raw: json.character_book, format: "card", name };
  }
  if (Array.isArray(json.entries)) return { raw: json, format: "character_book", name: "" };
  if (isRecord(json.entries)) return { raw: json, format: "worldinfo", name: "" };
  throw unusableFile(NOT_A_LOREBOOK);
}

async function fromCardFile(data: Buffer, filename: string, readCard: ReadCard) {
  let card: Awaited<ReturnType<ReadCard>>;
  try {
    card = await readCard(data, filename);
  } catch (error) {
    // The card reader's refusals (CardError) carry a status and a message meant for people.
    const status = (error as { status?: unknown }).status;
    if (status === 413) throw new HttpError(413, "payloadTooLarge", (error as Error).message);
    if (status === 400 || status === 415) throw unusableFile((error as Error).message);
    throw error;
  }
  if (!isRecord(card.characterBook)) throw unusableFile(NO_BOOK_IN_CARD);
  return {
    raw: card.characterBook,
    format: "card" as const,
    name: card.fields.name ? `${card.fields.name} lore` : "",
  };
}

/**
 * Reads an uploaded lorebook: a SillyTavern world-info JSON, a V2/V3 card (JSON, PNG or CharX)
 * with a character_book, or a bare character_book. Named from the book, else the card, else the
 * file name. Entries without text (or past the contract's limits) are counted as skipped.
 */
export async function readLorebookFile(
  data: Buffer,
  filename: string,
  readCard: ReadCard,
): Promise<ReadLorebookFile> {
  let found: Awaited<ReturnType<typeof fromCardFile>> | ReturnType<typeof locate>;
  if (isPng(data) || isZip(data)) {
    found = await fromCardFile(data, filename, readCard);
  } else {
    let json: unknown;
    try {
      json = JSON.parse(data.toString("utf8").replace(/^\uFEFF/, ""));
    } catch {
      throw unusableFile(NOT_A_LOREBOOK);
    }
    found = locate(json);
  }
  const book = readLorebook(found.raw);
  if (!book) throw unusableFile(NO_ENTRIES);
  const body = toLorebookBody(book);
  body.name = (body.name || found.name || stem(filename) || "Imported lorebook").slice(0, 100).trim();
  const checked = lorebookCreate.safeParse(body);
  // toLorebookBody keeps to the contract; a failure here is a bug, not the file's fault.
  if (!checked.success) throw new Error(`imported lorebook broke the contract: ${checked.error.message}`);
  return {
    body: checked.data,
    format: found.format,
    skipped: Math.max(0, rawEntryCount(found.raw) - checked.data.entries.length),
  };
}

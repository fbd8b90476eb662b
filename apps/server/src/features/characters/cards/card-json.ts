import { cardTooLarge, MAX_CARD_JSON_BYTES, MAX_JSON_DEPTH } from "./limits.ts";
import { CardError } from "./types.ts";

/** Reading the card JSON itself (V1, V2 or V3), from bytes or from a PNG chunk's base64. */

export type CardVersion = 1 | 2 | 3;

export interface RawCard {
  version: CardVersion;
  /** The character: `data` of a V2/V3 card, the whole object of a V1 card. */
  data: Record<string, unknown>;
  /** V2/V3 top-level keys besides spec, spec_version and data (V1 copies some tools add). */
  ignoredTopLevel: string[];
  warnings: string[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const V1_TEXT_KEYS = ["description", "personality", "scenario", "first_mes", "mes_example"];

/** The base64 text of a PNG `chara`/`ccv3` chunk, strictly checked (Buffer.from skips bad characters). */
export function decodeBase64Card(text: string, chunk: string): Buffer {
  const compact = text.replace(/\s+/g, "");
  if (compact.length === 0) throw new CardError(`The ${chunk} chunk of this PNG is empty.`);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new CardError(`The ${chunk} chunk of this PNG is not valid base64.`);
  }
  if (Math.floor((compact.length * 3) / 4) > MAX_CARD_JSON_BYTES) throw cardTooLarge();
  return Buffer.from(compact, "base64");
}

/**
 * Deepest nesting of objects and arrays, stopping early past `limit`. JSON.parse copes with deep
 * input, but whatever walks the result afterwards (zod, JSON.stringify, the database) may not.
 */
function nestingExceeds(json: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character; a quote ends the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function parseCardJson(bytes: Buffer): RawCard {
  if (bytes.length > MAX_CARD_JSON_BYTES) throw cardTooLarge();
  // Lenient about invalid UTF-8 (replacement characters), strict about JSON syntax.
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    throw new CardError(`The card data is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : "";
    throw new CardError(`The card data is not valid JSON${detail}`);
  }
  return classify(parsed);
}

function classify(card: unknown): RawCard {
  if (!isRecord(card)) throw new CardError("This JSON is not a character card: it is not an object.");
  const warnings: string[] = [];
  const spec = card.spec;
  if (spec === "chara_card_v2" || spec === "chara_card_v3") {
    if (!isRecord(card.data)) throw new CardError(`This ${spec} card has no data object.`);
    const specVersion = Number.parseFloat(String(card.spec_version));
    if (spec === "chara_card_v3" && specVersion > 3) {
      warnings.push(
        `The card uses spec version ${String(card.spec_version)}, newer than 3.0: fields Hearth does not know are kept as they are.`,
      );
    }
    const ignoredTopLevel = Object.keys(card).filter((k) => !["spec", "spec_version", "data"].includes(k));
    return { version: spec === "chara_card_v3" ? 3 : 2, data: card.data, ignoredTopLevel, warnings };
  }
  if (typeof spec === "string" && spec !== "") {
    if (spec.startsWith("lorebook")) throw new CardError("This is a lorebook, not a character card.");
    throw new CardError(`This card uses an unknown format ("${spec.slice(0, 40)}").`);
  }
  if (isRecord(card.data) && typeof card.data.name === "string") {
    warnings.push("The card has no spec field; it was read as a V2 card.");
    const ignoredTopLevel = Object.keys(card).filter((k) => k !== "data" && k !== "spec_version");
    return { version: 2, data: card.data, ignoredTopLevel, warnings };
  }
  if (typeof card.name === "string" && V1_TEXT_KEYS.some((k) => typeof card[k] === "string")) {
    return { version: 1, data: card, ignoredTopLevel: [], warnings };
  }
  throw new CardError("This JSON is not a character card: it has no name, description or first message.");
}

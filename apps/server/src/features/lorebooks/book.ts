import { z } from "zod";

/**
 * A lorebook as Hearth applies it, read from a card's `character_book` (Tavern V2, with the V3
 * additions) or a SillyTavern world-info file. Reading is lenient: a card written by any tool
 * loads, unknown fields are ignored, and an entry that cannot be used (no content) is dropped.
 * SillyTavern keeps its richer options in each entry's `extensions`; they are read from there.
 */
export type LorePosition = "before_char" | "after_char" | "at_depth";

/** How the secondary keys combine with the primary ones (SillyTavern's selectiveLogic 0–3). */
export type SelectiveLogic = "and_any" | "not_all" | "not_any" | "and_all";

export interface LoreEntry {
  id: string;
  name: string;
  keys: string[];
  secondaryKeys: string[];
  selective: boolean;
  logic: SelectiveLogic;
  content: string;
  enabled: boolean;
  constant: boolean;
  /** Lower comes first in the prompt (V2: "lower insertion order = inserted higher"). */
  insertionOrder: number;
  /** When the budget runs out, lower priority is dropped first. */
  priority: number;
  position: LorePosition;
  /** For `at_depth`: how many messages from the newest the text goes. */
  depth: number;
  caseSensitive: boolean;
  wholeWords: boolean;
  /** V3 `use_regex`: every key is a regular expression. */
  useRegex: boolean;
  /** 0–100: the chance a matched entry is used. */
  probability: number;
  /** This entry's own scan depth, over the book's. */
  scanDepth: number | null;
  /** Not activated by text other entries brought in. */
  excludeRecursion: boolean;
  /** Its text does not activate other entries. */
  preventRecursion: boolean;
}

export interface Lorebook {
  name: string;
  description: string;
  /** How many of the newest messages are scanned for keys. */
  scanDepth: number;
  /** Tokens the book's entries may take together. */
  tokenBudget: number;
  recursiveScanning: boolean;
  entries: LoreEntry[];
}

export const DEFAULT_SCAN_DEPTH = 4;
export const DEFAULT_TOKEN_BUDGET = 512;

const num = z.coerce.number().finite().catch(Number.NaN);
const keyList = z
  .union([z.array(z.unknown()), z.string()])
  .catch([])
  .transform((value) =>
    (Array.isArray(value) ? value : value.split(","))
      .filter((key): key is string => typeof key === "string")
      .map((key) => key.trim())
      .filter(Boolean),
  );
const record = z.record(z.string(), z.unknown()).catch({});

const rawEntry = z.object({
  id: z.union([z.number(), z.string()]).optional().catch(undefined),
  uid: z.union([z.number(), z.string()]).optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  comment: z.string().optional().catch(undefined),
  keys: keyList.optional(),
  key: keyList.optional(),
  secondary_keys: keyList.optional(),
  keysecondary: keyList.optional(),
  content: z.string().catch(""),
  enabled: z.boolean().optional().catch(undefined),
  disable: z.boolean().optional().catch(undefined),
  constant: z.boolean().optional().catch(undefined),
  selective: z.boolean().optional().catch(undefined),
  selectiveLogic: num.optional(),
  insertion_order: num.optional(),
  order: num.optional(),
  priority: num.optional(),
  position: z.union([z.string(), z.number()]).optional().catch(undefined),
  depth: num.optional(),
  case_sensitive: z.boolean().nullish().catch(undefined),
  caseSensitive: z.boolean().nullish().catch(undefined),
  // SillyTavern world info keeps these at the entry's top level (null: the global setting).
  matchWholeWords: z.boolean().nullish().catch(undefined),
  excludeRecursion: z.boolean().nullish().catch(undefined),
  preventRecursion: z.boolean().nullish().catch(undefined),
  use_regex: z.boolean().optional().catch(undefined),
  probability: num.optional(),
  useProbability: z.boolean().optional().catch(undefined),
  scanDepth: num.nullish(),
  displayIndex: num.optional(),
  extensions: record.optional(),
});

const rawBook = z.object({
  name: z.string().optional().catch(undefined),
  description: z.string().optional().catch(undefined),
  scan_depth: num.optional(),
  token_budget: num.optional(),
  recursive_scanning: z.boolean().optional().catch(undefined),
  // Cards have an array; SillyTavern world-info files a map of uid → entry.
  entries: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).catch([]),
});

const LOGIC: SelectiveLogic[] = ["and_any", "not_all", "not_any", "and_all"];

const finite = (...values: Array<unknown>): number | undefined =>
  values.find((v): v is number => typeof v === "number" && Number.isFinite(v));

function positionOf(position: unknown, extensionPosition: unknown): LorePosition {
  // SillyTavern: 0 before the character, 1 after, 2/3 around examples, 4 at depth, 5/6 notes
  // (in a card's extensions, or at the top level of a world-info entry).
  const st = finite(extensionPosition, position);
  if (st !== undefined) return st === 4 ? "at_depth" : st === 0 || st === 2 ? "before_char" : "after_char";
  return position === "before_char" ? "before_char" : "after_char";
}

function toEntry(value: unknown, index: number): LoreEntry | null {
  const parsed = rawEntry.safeParse(value);
  if (!parsed.success || !parsed.data.content.trim()) return null;
  const e = parsed.data;
  const ext = e.extensions ?? {};
  const bool = (name: string) => (typeof ext[name] === "boolean" ? (ext[name] as boolean) : undefined);
  const insertionOrder = finite(e.insertion_order, e.order) ?? 100;
  const logicIndex = finite(ext.selectiveLogic, e.selectiveLogic) ?? 0;
  const useProbability = bool("useProbability") ?? e.useProbability ?? true;
  const probability = useProbability ? (finite(ext.probability, e.probability) ?? 100) : 100;
  const scanDepth = finite(ext.scan_depth, e.scanDepth);
  return {
    id: String(e.id ?? e.uid ?? index),
    name: e.name ?? e.comment ?? "",
    keys: e.keys ?? e.key ?? [],
    secondaryKeys: e.secondary_keys ?? e.keysecondary ?? [],
    selective: e.selective ?? false,
    logic: LOGIC[Math.trunc(logicIndex)] ?? "and_any",
    content: e.content.trim(),
    enabled: e.enabled ?? (e.disable === undefined ? true : !e.disable),
    constant: e.constant ?? false,
    insertionOrder,
    priority: finite(e.priority) ?? insertionOrder,
    position: positionOf(e.position, ext.position),
    depth: Math.max(0, Math.trunc(finite(ext.depth, e.depth) ?? 4)),
    caseSensitive: bool("case_sensitive") ?? e.case_sensitive ?? e.caseSensitive ?? false,
    wholeWords: bool("match_whole_words") ?? e.matchWholeWords ?? false,
    useRegex: e.use_regex ?? false,
    probability: Math.min(100, Math.max(0, probability)),
    scanDepth: scanDepth === undefined ? null : Math.max(0, Math.trunc(scanDepth)),
    excludeRecursion: bool("exclude_recursion") ?? e.excludeRecursion ?? false,
    preventRecursion: bool("prevent_recursion") ?? e.preventRecursion ?? false,
  };
}

/** A world-info map in its editor's order (displayIndex), else as listed (by uid). */
function byDisplayIndex(entries: unknown[]): unknown[] {
  const indexOf = (value: unknown) => {
    const index = (value as { displayIndex?: unknown } | null)?.displayIndex;
    return typeof index === "number" && Number.isFinite(index) ? index : Number.POSITIVE_INFINITY;
  };
  return entries
    .map((value, at) => ({ value, at, index: indexOf(value) }))
    .sort((a, b) => a.index - b.index || a.at - b.at)
    .map((e) => e.value);
}

/** How many entries a card's book or world-info file lists, usable or not. */
export function rawEntryCount(value: unknown): number {
  const parsed = rawBook.safeParse(value);
  if (!parsed.success) return 0;
  const { entries } = parsed.data;
  return Array.isArray(entries) ? entries.length : Object.keys(entries).length;
}

/**
 * The book a card or world-info file holds, or null when it holds no usable entry (`keepEmpty`:
 * a book without entries is still a book, for an editor showing what was saved).
 */
export function readLorebook(value: unknown, options: { keepEmpty?: boolean } = {}): Lorebook | null {
  const parsed = rawBook.safeParse(value);
  if (!parsed.success) return null;
  const book = parsed.data;
  const list = Array.isArray(book.entries) ? book.entries : byDisplayIndex(Object.values(book.entries));
  const entries = list.map(toEntry).filter((e): e is LoreEntry => e !== null);
  if (entries.length === 0 && !options.keepEmpty) return null;
  return {
    name: book.name ?? "",
    description: book.description ?? "",
    scanDepth: Math.max(0, Math.trunc(finite(book.scan_depth) ?? DEFAULT_SCAN_DEPTH)),
    tokenBudget: Math.max(0, Math.trunc(finite(book.token_budget) ?? DEFAULT_TOKEN_BUDGET)),
    recursiveScanning: book.recursive_scanning ?? false,
    entries,
  };
}

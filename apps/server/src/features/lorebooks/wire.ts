import {
  LORE_ENTRIES_MAX,
  LORE_ENTRY_CONTENT_MAX,
  LORE_KEY_MAX,
  LORE_KEYS_MAX,
  type LorebookBody,
  type LoreEntry as WireEntry,
} from "@hearth/contract";
import { type Lorebook, type LoreEntry, readLorebook } from "./book.ts";

/**
 * Hearth's internal book (camelCase, what activation reads) and the contract's wire form
 * (snake_case, what the editor sends, standalone books store and characters present). Reading
 * into the wire form clamps what a foreign file may hold beyond the contract's limits, so a
 * card written by any tool can always be presented and saved back.
 */

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.trunc(value)));
const clip = (text: string, max: number) => text.trim().slice(0, max).trim();
const keysOf = (keys: string[]) =>
  keys
    .map((k) => k.trim())
    .filter((k) => k.length > 0 && k.length <= LORE_KEY_MAX)
    .slice(0, LORE_KEYS_MAX);

/** An id the contract accepts (1–64 characters), unique within the book. */
function uniqueIds(entries: LoreEntry[]): string[] {
  const used = new Set<string>();
  return entries.map((entry, index) => {
    let id = entry.id.trim().slice(0, 64) || String(index);
    for (let n = 2; used.has(id); n++) id = `${entry.id.trim().slice(0, 56) || index}-${n}`;
    used.add(id);
    return id;
  });
}

export function toWireEntry(entry: LoreEntry, id = entry.id): WireEntry {
  return {
    id,
    name: clip(entry.name, 200),
    keys: keysOf(entry.keys),
    secondary_keys: keysOf(entry.secondaryKeys),
    selective: entry.selective,
    logic: entry.logic,
    content: clip(entry.content, LORE_ENTRY_CONTENT_MAX),
    enabled: entry.enabled,
    constant: entry.constant,
    insertion_order: clamp(entry.insertionOrder, -100_000, 100_000),
    priority: clamp(entry.priority, -100_000, 100_000),
    position: entry.position,
    depth: clamp(entry.depth, 0, 1000),
    case_sensitive: entry.caseSensitive,
    whole_words: entry.wholeWords,
    use_regex: entry.useRegex,
    probability: clamp(entry.probability, 0, 100),
    scan_depth: entry.scanDepth === null ? null : clamp(entry.scanDepth, 0, 1000),
    exclude_recursion: entry.excludeRecursion,
    prevent_recursion: entry.preventRecursion,
  };
}

/** A read book in the contract's form; entries past LORE_ENTRIES_MAX are left out. */
export function toLorebookBody(book: Lorebook): LorebookBody {
  const entries = book.entries.slice(0, LORE_ENTRIES_MAX);
  const ids = uniqueIds(entries);
  return {
    name: clip(book.name, 100),
    description: clip(book.description, 2000),
    scan_depth: clamp(book.scanDepth, 0, 1000),
    token_budget: clamp(book.tokenBudget, 0, 32_768),
    recursive_scanning: book.recursiveScanning,
    entries: entries.map((entry, i) => toWireEntry(entry, ids[i])),
  };
}

/** The contract's form as activation reads it. */
export function fromLorebookBody(body: LorebookBody): Lorebook {
  return {
    name: body.name,
    description: body.description,
    scanDepth: body.scan_depth,
    tokenBudget: body.token_budget,
    recursiveScanning: body.recursive_scanning,
    entries: body.entries.map((e) => ({
      id: e.id,
      name: e.name,
      keys: e.keys,
      secondaryKeys: e.secondary_keys,
      selective: e.selective,
      logic: e.logic,
      content: e.content,
      enabled: e.enabled,
      constant: e.constant,
      insertionOrder: e.insertion_order,
      priority: e.priority,
      position: e.position,
      depth: e.depth,
      caseSensitive: e.case_sensitive,
      wholeWords: e.whole_words,
      useRegex: e.use_regex,
      probability: e.probability,
      scanDepth: e.scan_depth,
      excludeRecursion: e.exclude_recursion,
      preventRecursion: e.prevent_recursion,
    })),
  };
}

/**
 * A character's stored character_book (as a card had it, or as Hearth wrote it) in the wire
 * form, or null when there is none. A book without entries stays a book here (the editor shows
 * what was saved); prompts skip it.
 */
export function characterBookForWire(stored: unknown): LorebookBody | null {
  if (stored === null || stored === undefined) return null;
  const book = readLorebook(stored, { keepEmpty: true });
  return book ? toLorebookBody(book) : null;
}

import {
  LORE_KEYS_MAX,
  type LorebookBody,
  type LoreEntry,
  type LoreLogic,
  type LorePosition,
  lorebookBody,
  lorebookCreate,
  loreEntry,
} from "@hearth/contract";

/**
 * The lorebook editor's model: a whole book as the contract's output type (every field filled),
 * edited in place and sent as is. Checks use the contract's own schemas so the editor refuses
 * exactly what the server would.
 */

export type BookValues = LorebookBody;
export type EntryValues = LoreEntry;

export const positionLabel: Record<LorePosition, string> = {
  before_char: "Before the character",
  after_char: "After the character",
  at_depth: "Inside the chat, at a depth",
};

/** Short forms for the entry list's badges. */
export const positionBadge: Record<LorePosition, string> = {
  before_char: "Before character",
  after_char: "After character",
  at_depth: "At depth",
};

/** Short enough for a phone's select; the field's hint says what they check. */
export const logicLabel: Record<LoreLogic, string> = {
  and_any: "AND ANY (at least one)",
  and_all: "AND ALL (every one)",
  not_any: "NOT ANY (none)",
  not_all: "NOT ALL (not every one)",
};

export const emptyBook = (name = ""): BookValues => lorebookBody.parse({ name });

function newId(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `entry-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A new entry with the contract's defaults, after every other entry in insertion order. */
export function newEntry(book: BookValues): EntryValues {
  const last = Math.max(0, ...book.entries.map((e) => e.insertion_order));
  const base = loreEntry.parse({ id: newId(), content: "x" });
  return { ...base, content: "", insertion_order: book.entries.length ? last + 10 : base.insertion_order };
}

export function duplicateEntry(entry: EntryValues): EntryValues {
  return {
    ...entry,
    id: newId(),
    name: entry.name ? `${entry.name} (copy)` : "",
    keys: [...entry.keys],
    secondary_keys: [...entry.secondary_keys],
  };
}

/** Entries in prompt order: insertion order, then the order they were written in. */
export function sortedEntries(entries: EntryValues[]): EntryValues[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.insertion_order - b.entry.insertion_order || a.index - b.index)
    .map(({ entry }) => entry);
}

/**
 * Moves an entry one place up or down the prompt order by swapping insertion orders with its
 * neighbour. Equal orders can't be swapped into a change, so the list is first numbered 10, 20,
 * 30… in its current order.
 */
export function moveEntry(entries: EntryValues[], id: string, direction: -1 | 1): EntryValues[] {
  let sorted = sortedEntries(entries);
  const at = sorted.findIndex((e) => e.id === id);
  const other = at + direction;
  if (at < 0 || other < 0 || other >= sorted.length) return entries;
  if (sorted[at]?.insertion_order === sorted[other]?.insertion_order) {
    sorted = sorted.map((e, i) => ({ ...e, insertion_order: (i + 1) * 10 }));
  }
  const a = sorted[at] as EntryValues;
  const b = sorted[other] as EntryValues;
  const orders = new Map([
    [a.id, b.insertion_order],
    [b.id, a.insertion_order],
  ]);
  const renumbered = new Map(sorted.map((e) => [e.id, orders.get(e.id) ?? e.insertion_order]));
  return entries.map((e) => ({ ...e, insertion_order: renumbered.get(e.id) ?? e.insertion_order }));
}

/** "dragon, wyrm +2" for the entry list. */
export function keysSummary(entry: EntryValues): string {
  if (entry.keys.length === 0) return entry.constant ? "No keys (always used)" : "No keys yet";
  const shown = entry.keys.slice(0, 3).join(", ");
  return entry.keys.length > 3 ? `${shown} +${entry.keys.length - 3}` : shown;
}

/**
 * How the editor names an entry: its name, else its first key ("Teeth"), else its place in prompt
 * order ("Entry 3"), counted from 0 by `index`.
 */
export function entryTitle(entry: EntryValues, index: number): string {
  const key = entry.keys.map((k) => k.trim()).find(Boolean);
  return entry.name.trim() || key || `Entry ${index + 1}`;
}

/** Problems keyed by path: "name", "scan_depth", "entries", or "<entry id>.<field>". */
export type BookErrors = Record<string, string>;

type Issue = { path: PropertyKey[]; code: string; message: string };

/** Whole numbers out of range and blanks read better than zod's defaults. */
function issueMessage(issue: Issue, field: string): string {
  const range = numberRange(field);
  if (range && (issue.code === "too_small" || issue.code === "too_big" || issue.code === "invalid_type")) {
    return `Enter a whole number from ${range[0].toLocaleString("en-US")} to ${range[1].toLocaleString("en-US")}`;
  }
  if (issue.code === "not_multiple_of" || (range && issue.code === "invalid_format")) {
    return "Enter a whole number";
  }
  if (issue.code === "too_big" && field.endsWith("keys")) return `At most ${LORE_KEYS_MAX} keys`;
  return issue.message;
}

const entryRanges: Record<string, [number, number]> = {
  insertion_order: [-100_000, 100_000],
  priority: [-100_000, 100_000],
  depth: [0, 1000],
  probability: [0, 100],
  scan_depth: [0, 1000],
};
const bookRanges: Record<string, [number, number]> = {
  scan_depth: [0, 1000],
  token_budget: [0, 32_768],
};

/** The contract's bounds for a number field ("scan_depth" of the book, "entry.depth" of an entry). */
export function numberRange(field: string): [number, number] | undefined {
  return field.startsWith("entry.") ? entryRanges[field.slice(6)] : bookRanges[field];
}

/** Checks a book with the contract's schema (lorebookCreate when it must be named). */
export function bookErrors(book: BookValues, options: { named: boolean }): BookErrors {
  const result = (options.named ? lorebookCreate : lorebookBody).safeParse(book);
  if (result.success) return {};
  const errors: BookErrors = {};
  for (const issue of result.error.issues as Issue[]) {
    const [first, index, field] = issue.path;
    let key: string;
    let message: string;
    if (first === "entries" && typeof index === "number") {
      const entry = book.entries[index];
      const name = String(field ?? "content");
      key = `${entry?.id ?? index}.${name}`;
      message = issueMessage(issue, `entry.${name}`);
    } else {
      key = String(first ?? "book");
      message = issueMessage(issue, key);
    }
    errors[key] ??= message;
  }
  return errors;
}

/** Errors that belong to one entry, by field name. */
export function entryErrors(errors: BookErrors, id: string): Record<string, string> {
  const own: Record<string, string> = {};
  const prefix = `${id}.`;
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(prefix)) own[key.slice(prefix.length).split(".")[0] as string] = message;
  }
  return own;
}

/**
 * What the test box sends: the book with only the entries the server would accept, so a
 * half-written entry doesn't stop the test; the ones left out are named.
 */
export function testableBook(book: BookValues): { book: BookValues; skipped: EntryValues[] } {
  const entries = book.entries.filter((entry) => loreEntry.safeParse(entry).success);
  const skipped = book.entries.filter((entry) => !entries.includes(entry));
  return { book: { ...book, entries }, skipped };
}

/** A book from the server (or a card) as the editor's values, every default filled in. */
export function bookFrom(source: unknown): BookValues {
  const parsed = lorebookBody.safeParse(source);
  return parsed.success ? parsed.data : emptyBook();
}

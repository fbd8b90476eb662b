import type { Lorebook, LoreEntry, LorePosition } from "./book.ts";

/**
 * Which lorebook entries a turn activates, by the card specification's rules (V2
 * `character_book`, V3's `use_regex`, SillyTavern's extensions): an enabled entry is used when it
 * is constant or a primary key appears in the scanned text, its secondary keys agree (selective
 * logic), and its probability roll passes. With recursive scanning, activated entries' text is
 * scanned again for more, up to a depth limit. The book's token budget keeps the highest
 * priority first; what is used is ordered by insertion order within its position.
 *
 * Only the newest `scanDepth` messages are read, so a 10,000-message chat costs what a short one
 * does.
 */
export interface ActivationOptions {
  countTokens: (text: string) => number;
  /** At most this many tokens, even when the book allows more (the prompt's share for lore). */
  maxTokens?: number;
  /** How many rounds of recursive scanning, after the first. */
  maxRecursion?: number;
  /** 0 ≤ x < 1; Math.random by default, fixed in tests. */
  random?: () => number;
}

export interface ActivatedEntry {
  id: string;
  name: string;
  content: string;
  position: LorePosition;
  depth: number;
  insertionOrder: number;
  tokens: number;
  /** What activated it: a key (as written), "constant", or "recursion" through another entry. */
  reason: string;
  /** The kind of reason (a key may itself read "constant"). */
  via: "constant" | "key" | "recursion";
}

export interface Activation {
  entries: ActivatedEntry[];
  tokens: number;
  /** Matched but left out for the budget. */
  overBudget: string[];
}

export const DEFAULT_MAX_RECURSION = 3;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `/pattern/flags` as a key is a regular expression, also without V3's use_regex. */
const REGEX_KEY = /^\/(.+)\/([dgimsuy]*)$/s;

function keyMatcher(entry: LoreEntry, key: string): RegExp | null {
  const written = key.match(REGEX_KEY);
  try {
    if (written?.[1]) {
      const flags = (written[2] ?? "").replace(/[gy]/g, "");
      return new RegExp(written[1], flags);
    }
    if (entry.useRegex) return new RegExp(key, entry.caseSensitive ? "u" : "iu");
  } catch {
    // A broken pattern never matches rather than breaking the prompt.
    return null;
  }
  const flags = entry.caseSensitive ? "u" : "iu";
  return entry.wholeWords
    ? new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(key)}(?![\\p{L}\\p{N}_])`, flags)
    : new RegExp(escapeRegExp(key), flags);
}

/** The entry's keys that are meant as regular expressions but do not compile (they never match). */
export function invalidKeys(entry: LoreEntry): string[] {
  return [...entry.keys, ...entry.secondaryKeys].filter(
    (key) => (entry.useRegex || REGEX_KEY.test(key)) && keyMatcher(entry, key) === null,
  );
}

/** Compiled once per book (the regular expressions of every key). */
const compiled = new WeakMap<LoreEntry, { primary: [string, RegExp][]; secondary: RegExp[] }>();
function matchersOf(entry: LoreEntry) {
  let found = compiled.get(entry);
  if (!found) {
    const build = (keys: string[]) =>
      keys.flatMap((key): [string, RegExp][] => {
        const regex = keyMatcher(entry, key);
        return regex ? [[key, regex]] : [];
      });
    found = { primary: build(entry.keys), secondary: build(entry.secondaryKeys).map(([, r]) => r) };
    compiled.set(entry, found);
  }
  return found;
}

/** The key that activates the entry in `text`, or null. */
function matchIn(entry: LoreEntry, text: string): string | null {
  const { primary, secondary } = matchersOf(entry);
  const hit = primary.find(([, regex]) => regex.test(text));
  if (!hit) return null;
  if (!entry.selective || secondary.length === 0) return hit[0];
  const found = secondary.filter((regex) => regex.test(text)).length;
  const agrees =
    entry.logic === "and_any"
      ? found > 0
      : entry.logic === "and_all"
        ? found === secondary.length
        : entry.logic === "not_any"
          ? found === 0
          : found < secondary.length;
  return agrees ? hit[0] : null;
}

/** `messages` oldest first; only the newest scan depth of them is read. */
export function activateLore(book: Lorebook, messages: string[], options: ActivationOptions): Activation {
  const random = options.random ?? Math.random;
  const maxRecursion = options.maxRecursion ?? DEFAULT_MAX_RECURSION;
  const budget = Math.min(book.tokenBudget, options.maxTokens ?? Number.POSITIVE_INFINITY);
  const windowOf = (depth: number) => (depth > 0 ? messages.slice(-depth).join("\n") : "");
  const windows = new Map<number, string>();
  const scanned = (entry: LoreEntry) => {
    const depth = entry.scanDepth ?? book.scanDepth;
    let text = windows.get(depth);
    if (text === undefined) {
      text = windowOf(depth);
      windows.set(depth, text);
    }
    return text;
  };

  const chosen = new Map<LoreEntry, { reason: string; via: ActivatedEntry["via"] }>();
  const rolled = new Set<LoreEntry>();
  const passes = (entry: LoreEntry) => {
    // Each entry rolls once per turn, whichever pass finds it.
    if (rolled.has(entry)) return false;
    rolled.add(entry);
    return entry.probability >= 100 || random() * 100 < entry.probability;
  };
  const enabled = book.entries.filter((e) => e.enabled);
  for (const entry of enabled) {
    const key = entry.constant ? null : matchIn(entry, scanned(entry));
    if ((entry.constant || key) && passes(entry)) {
      chosen.set(entry, key ? { reason: key, via: "key" } : { reason: "constant", via: "constant" });
    }
  }
  if (book.recursiveScanning) {
    let fresh = [...chosen.keys()];
    for (let round = 0; round < maxRecursion && fresh.length > 0; round++) {
      const text = fresh
        .filter((e) => !e.preventRecursion)
        .map((e) => e.content)
        .join("\n");
      fresh = [];
      if (!text) break;
      for (const entry of enabled) {
        if (chosen.has(entry) || rolled.has(entry) || entry.excludeRecursion) continue;
        if (matchIn(entry, text) && passes(entry)) {
          chosen.set(entry, { reason: "recursion", via: "recursion" });
          fresh.push(entry);
        }
      }
    }
  }

  // The budget: constant entries first, then by priority, then insertion order (higher first).
  const ranked = [...chosen.keys()].sort(
    (a, b) =>
      Number(b.constant) - Number(a.constant) ||
      b.priority - a.priority ||
      b.insertionOrder - a.insertionOrder,
  );
  const entries: ActivatedEntry[] = [];
  const overBudget: string[] = [];
  let tokens = 0;
  for (const entry of ranked) {
    const cost = options.countTokens(entry.content);
    if (tokens + cost > budget) {
      overBudget.push(entry.id);
      continue;
    }
    tokens += cost;
    entries.push({
      id: entry.id,
      name: entry.name,
      content: entry.content,
      position: entry.position,
      depth: entry.depth,
      insertionOrder: entry.insertionOrder,
      tokens: cost,
      ...(chosen.get(entry) ?? { reason: "", via: "key" }),
    });
  }
  entries.sort((a, b) => a.insertionOrder - b.insertionOrder);
  return { entries, tokens, overBudget };
}

/** The activated text for one position, in insertion order. */
export function loreText(activation: Activation, position: LorePosition): string {
  return activation.entries
    .filter((e) => e.position === position)
    .map((e) => e.content)
    .join("\n");
}

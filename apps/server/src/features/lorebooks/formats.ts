import type { LorebookBody, LoreEntry, LoreLogic, LorePosition } from "@hearth/contract";

/**
 * Writing a book in the two file formats other tools read: a card's `character_book` (Tavern V2
 * with V3's `use_regex`, SillyTavern's options in each entry's `extensions`) and a SillyTavern
 * world-info file. Both are read back by `readLorebook` to the same book, field for field.
 */

const LOGIC: LoreLogic[] = ["and_any", "not_all", "not_any", "and_all"];
/** SillyTavern's positions: 0 before the character, 1 after, 4 at depth. */
const ST_POSITION: Record<LorePosition, number> = { before_char: 0, after_char: 1, at_depth: 4 };

/** A numeric id stays a number (the V2 spec's type); any other id is kept as written. */
const specId = (id: string): number | string => (/^(0|[1-9]\d{0,14})$/.test(id) ? Number(id) : id);

/** The entry's SillyTavern options, as ST writes them into a card's entry extensions. */
function stExtensions(e: LoreEntry) {
  return {
    position: ST_POSITION[e.position],
    depth: e.depth,
    selectiveLogic: LOGIC.indexOf(e.logic),
    probability: e.probability,
    useProbability: true,
    scan_depth: e.scan_depth,
    case_sensitive: e.case_sensitive,
    match_whole_words: e.whole_words,
    exclude_recursion: e.exclude_recursion,
    prevent_recursion: e.prevent_recursion,
  };
}

/** A card's `character_book` (what card export writes and the characters table keeps). */
export function toCharacterBook(book: LorebookBody) {
  return {
    name: book.name,
    description: book.description,
    scan_depth: book.scan_depth,
    token_budget: book.token_budget,
    recursive_scanning: book.recursive_scanning,
    extensions: {},
    entries: book.entries.map((e) => ({
      id: specId(e.id),
      keys: e.keys,
      secondary_keys: e.secondary_keys,
      comment: e.name,
      name: e.name,
      content: e.content,
      constant: e.constant,
      selective: e.selective,
      insertion_order: e.insertion_order,
      enabled: e.enabled,
      // V2 knows before and after the character; at depth lives in the extensions.
      position: e.position === "before_char" ? "before_char" : "after_char",
      use_regex: e.use_regex,
      case_sensitive: e.case_sensitive,
      priority: e.priority,
      extensions: stExtensions(e),
    })),
  };
}

export type CharacterBookJson = ReturnType<typeof toCharacterBook>;

/** uid: the entry's own id when it is a number, else the next number no other entry uses. */
function uids(entries: LoreEntry[]): number[] {
  const numeric = entries.map((e) => specId(e.id));
  const taken = new Set(numeric.filter((id): id is number => typeof id === "number"));
  let next = 0;
  return numeric.map((id) => {
    if (typeof id === "number") return id;
    while (taken.has(next)) next++;
    taken.add(next);
    return next;
  });
}

/**
 * A SillyTavern world-info file ({ entries: { uid: entry } }). ST has no book-level settings in
 * the file and no priority, regex flag or non-numeric id on an entry: those are written as extra
 * fields, which ST keeps and ignores, so the file reads back into Hearth unchanged.
 */
export function toWorldInfo(book: LorebookBody) {
  const numbers = uids(book.entries);
  const entries = Object.fromEntries(
    book.entries.map((e, index) => {
      const uid = numbers[index] as number;
      const entry = {
        uid,
        ...(String(uid) === e.id ? {} : { id: e.id }),
        key: e.keys,
        keysecondary: e.secondary_keys,
        comment: e.name,
        content: e.content,
        constant: e.constant,
        vectorized: false,
        selective: e.selective,
        selectiveLogic: LOGIC.indexOf(e.logic),
        addMemo: true,
        order: e.insertion_order,
        position: ST_POSITION[e.position],
        disable: !e.enabled,
        excludeRecursion: e.exclude_recursion,
        preventRecursion: e.prevent_recursion,
        delayUntilRecursion: false,
        probability: e.probability,
        useProbability: true,
        depth: e.depth,
        group: "",
        groupOverride: false,
        groupWeight: 100,
        scanDepth: e.scan_depth,
        caseSensitive: e.case_sensitive,
        matchWholeWords: e.whole_words,
        useGroupScoring: null,
        automationId: "",
        role: null,
        sticky: 0,
        cooldown: 0,
        delay: 0,
        displayIndex: index,
        priority: e.priority,
        use_regex: e.use_regex,
      };
      return [String(uid), entry];
    }),
  );
  return {
    name: book.name,
    description: book.description,
    scan_depth: book.scan_depth,
    token_budget: book.token_budget,
    recursive_scanning: book.recursive_scanning,
    entries,
  };
}

import { type LorebookBody, type LorebookBodyInput, lorebookBody } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { activateLore } from "./activation.ts";
import { readLorebook } from "./book.ts";
import { toCharacterBook, toWorldInfo } from "./formats.ts";
import { fromLorebookBody, toLorebookBody } from "./wire.ts";

/** A book that sets every field of every entry away from its default somewhere. */
const full: LorebookBodyInput = {
  name: "Ashfall",
  description: "The volcano country.",
  scan_depth: 6,
  token_budget: 300,
  recursive_scanning: true,
  entries: [
    {
      id: "7",
      name: "The mountain",
      keys: ["Ashfall", "the mountain"],
      content: "Ashfall is a volcano that last erupted a century ago.",
      position: "before_char",
      insertion_order: 5,
      priority: 40,
      case_sensitive: true,
      whole_words: true,
    },
    {
      id: "sword-of-dawn",
      name: "Sword",
      keys: ["/sw(o|a)rd/i"],
      secondary_keys: ["dawn", "light"],
      selective: true,
      logic: "and_all",
      content: "The Sword of Dawn glows near ash.",
      enabled: false,
      position: "at_depth",
      depth: 2,
      use_regex: true,
      probability: 35,
      scan_depth: 12,
      exclude_recursion: true,
      prevent_recursion: true,
      insertion_order: -3,
    },
    {
      id: "0",
      keys: [],
      content: "Everyone here fears the ash winds.",
      constant: true,
      logic: "not_any",
      secondary_keys: ["calm"],
      selective: true,
      insertion_order: 100_000,
      priority: -100_000,
    },
    { id: "3", keys: ["harbor"], content: "The harbor froze.", logic: "not_all", scan_depth: 0 },
  ],
};

const body = (input: LorebookBodyInput): LorebookBody => lorebookBody.parse(input);
/** Written to a file, read back as another tool would hand it to us. */
const viaFile = (value: unknown) => readLorebook(JSON.parse(JSON.stringify(value)));

describe("lorebook file formats", () => {
  it("a card's character_book reads back to the same book, every field", () => {
    const book = body(full);
    const read = viaFile(toCharacterBook(book));
    expect(read).not.toBeNull();
    expect(toLorebookBody(read as NonNullable<typeof read>)).toEqual(book);
  });

  it("writes the V2 spec fields, SillyTavern's options in the entries' extensions", () => {
    const card = toCharacterBook(body(full));
    expect(card).toMatchObject({
      name: "Ashfall",
      scan_depth: 6,
      token_budget: 300,
      recursive_scanning: true,
    });
    expect(card.entries[0]).toMatchObject({
      id: 7,
      keys: ["Ashfall", "the mountain"],
      position: "before_char",
      case_sensitive: true,
      extensions: { position: 0, match_whole_words: true },
    });
    expect(card.entries[1]).toMatchObject({
      id: "sword-of-dawn",
      enabled: false,
      use_regex: true,
      // V2 has no "at depth": the position falls back to after the character for other tools.
      position: "after_char",
      extensions: {
        position: 4,
        depth: 2,
        selectiveLogic: 3,
        probability: 35,
        useProbability: true,
        scan_depth: 12,
        exclude_recursion: true,
        prevent_recursion: true,
      },
    });
  });

  it("a SillyTavern world-info file reads back to the same book, every field and the order", () => {
    const book = body(full);
    const world = toWorldInfo(book);
    // Numeric ids are the uids; others get a free uid and keep their id beside it.
    expect(Object.keys(world.entries).sort()).toEqual(["0", "1", "3", "7"]);
    expect(world.entries["1"]).toMatchObject({ uid: 1, id: "sword-of-dawn", disable: true, position: 4 });
    const read = viaFile(world);
    expect(toLorebookBody(read as NonNullable<typeof read>)).toEqual(book);
  });

  it("reads a SillyTavern world-info export", () => {
    const exported = {
      entries: {
        "0": {
          uid: 0,
          key: ["Eldoria", "the kingdom"],
          keysecondary: [],
          comment: "Kingdom of Eldoria",
          content: "Eldoria is a river kingdom ruled by Queen Maelis.",
          constant: false,
          vectorized: false,
          selective: true,
          selectiveLogic: 0,
          addMemo: true,
          order: 100,
          position: 0,
          disable: false,
          excludeRecursion: false,
          preventRecursion: false,
          delayUntilRecursion: false,
          probability: 100,
          useProbability: true,
          depth: 4,
          group: "",
          groupOverride: false,
          groupWeight: 100,
          scanDepth: null,
          caseSensitive: null,
          matchWholeWords: null,
          useGroupScoring: null,
          automationId: "",
          role: null,
          sticky: 0,
          cooldown: 0,
          delay: 0,
          displayIndex: 1,
        },
        "4": {
          uid: 4,
          key: ["blade"],
          keysecondary: ["cursed", "black"],
          comment: "The black blade",
          content: "A cursed black blade drinks the light around it.",
          constant: false,
          selective: true,
          selectiveLogic: 3,
          order: 250,
          position: 4,
          disable: true,
          excludeRecursion: true,
          preventRecursion: false,
          probability: 50,
          useProbability: true,
          depth: 2,
          scanDepth: 8,
          caseSensitive: true,
          matchWholeWords: true,
          displayIndex: 0,
        },
        "5": { uid: 5, key: ["empty"], comment: "A draft", content: "   ", position: 1, displayIndex: 2 },
        "6": {
          uid: 6,
          key: [],
          comment: "Weather",
          content: "It always rains in the capital.",
          constant: true,
          position: 1,
          order: 10,
          probability: 30,
          useProbability: false,
          displayIndex: 3,
        },
      },
    };
    const read = readLorebook(exported);
    expect(read).not.toBeNull();
    const book = toLorebookBody(read as NonNullable<typeof read>);
    expect(lorebookBody.safeParse(book).success).toBe(true);
    // The editor's order (displayIndex); the entry without text is left out.
    expect(book.entries.map((e) => e.id)).toEqual(["4", "0", "6"]);
    expect(book.entries[0]).toMatchObject({
      name: "The black blade",
      keys: ["blade"],
      secondary_keys: ["cursed", "black"],
      selective: true,
      logic: "and_all",
      enabled: false,
      insertion_order: 250,
      priority: 250,
      position: "at_depth",
      depth: 2,
      probability: 50,
      scan_depth: 8,
      case_sensitive: true,
      whole_words: true,
      exclude_recursion: true,
      prevent_recursion: false,
    });
    expect(book.entries[1]).toMatchObject({
      name: "Kingdom of Eldoria",
      keys: ["Eldoria", "the kingdom"],
      position: "before_char",
      enabled: true,
      case_sensitive: false,
      whole_words: false,
      scan_depth: null,
    });
    // useProbability off: the entry is always used.
    expect(book.entries[2]).toMatchObject({ constant: true, position: "after_char", probability: 100 });
    // ST files carry no book settings: Hearth's defaults.
    expect(book).toMatchObject({ name: "", scan_depth: 4, token_budget: 512, recursive_scanning: false });

    const turn = activateLore(fromLorebookBody(book), ["Tell me of Eldoria."], { countTokens: () => 5 });
    expect(turn.entries.map((e) => [e.id, e.via])).toEqual([
      ["6", "constant"],
      ["0", "key"],
    ]);
  });

  it("clamps what a foreign card holds beyond the contract into a book the contract accepts", () => {
    const read = readLorebook({
      name: "x".repeat(300),
      scan_depth: 5000,
      token_budget: 1e9,
      entries: [
        {
          id: 1,
          keys: ["a", "k".repeat(500)],
          content: "One.",
          insertion_order: 1e9,
          extensions: { depth: -4 },
        },
        { id: 1, keys: Array.from({ length: 80 }, (_, i) => `k${i}`), content: "c".repeat(9000) },
        { id: "i".repeat(100), content: "Three.", extensions: { probability: 400, scan_depth: 99999 } },
      ],
    });
    const book = toLorebookBody(read as NonNullable<typeof read>);
    expect(lorebookBody.safeParse(book).success).toBe(true);
    expect(book.entries.map((e) => e.id)).toEqual(["1", "1-2", "i".repeat(64)]);
    expect(book.entries[0]?.keys).toEqual(["a"]);
    expect(book.entries[1]?.keys).toHaveLength(50);
    expect(book).toMatchObject({ scan_depth: 1000, token_budget: 32_768 });
  });
});

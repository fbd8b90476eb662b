import { describe, expect, it } from "vitest";
import { activateLore, loreText } from "./activation.ts";
import { type Lorebook, readLorebook } from "./book.ts";

/** One token per word: budgets are easy to reason about. */
const countTokens = (text: string) => text.split(/\s+/).filter(Boolean).length;

function book(entries: Record<string, unknown>[], extra: Record<string, unknown> = {}): Lorebook {
  const read = readLorebook({
    entries: entries.map((e, i) => ({
      keys: [],
      content: `entry ${i}`,
      enabled: true,
      insertion_order: i,
      ...e,
    })),
    ...extra,
  });
  if (!read) throw new Error("no book");
  return read;
}

const ids = (b: Lorebook, messages: string[], opts: Partial<Parameters<typeof activateLore>[2]> = {}) =>
  activateLore(b, messages, { countTokens, ...opts }).entries.map((e) => e.id);

describe("lorebook activation (card spec V2/V3 semantics)", () => {
  it("activates on a primary key, case-insensitively unless the entry says otherwise", () => {
    const b = book([
      { id: "castle", keys: ["Castle"], content: "The castle has nine towers." },
      { id: "exact", keys: ["Ember"], case_sensitive: true, content: "Ember is a dragon." },
      { id: "off", keys: ["castle"], enabled: false, content: "never" },
    ]);
    expect(ids(b, ["we reach the CASTLE gate"])).toEqual(["castle"]);
    expect(ids(b, ["ember glows"])).toEqual([]);
    expect(ids(b, ["Ember glows"])).toEqual(["exact"]);
  });

  it("matches whole words when asked, and regular expressions from V3's use_regex or /…/ keys", () => {
    const b = book([
      { id: "cat", keys: ["cat"], extensions: { match_whole_words: true } },
      { id: "v3", keys: ["drag(on|oness)"], use_regex: true },
      { id: "slashed", keys: ["/\\bsilver\\s+key\\b/i"] },
      { id: "broken", keys: ["(unclosed"], use_regex: true },
    ]);
    expect(ids(b, ["a catalogue of things"])).toEqual([]);
    expect(ids(b, ["the cat, asleep"])).toEqual(["cat"]);
    expect(ids(b, ["a DRAGONESS lands"])).toEqual(["v3"]);
    expect(ids(b, ["she holds the Silver  Key"])).toEqual(["slashed"]);
    expect(ids(b, ["(unclosed"])).toEqual([]);
  });

  it("applies the selective logic of secondary keys: AND ANY, AND ALL, NOT ANY, NOT ALL", () => {
    const entries = ["and_any", "not_all", "not_any", "and_all"].map((id, logic) => ({
      id,
      keys: ["king"],
      selective: true,
      secondary_keys: ["crown", "throne"],
      extensions: { selectiveLogic: logic },
    }));
    const b = book(entries);
    expect(ids(b, ["the king"]).sort()).toEqual(["not_all", "not_any"]);
    expect(ids(b, ["the king and his crown"]).sort()).toEqual(["and_any", "not_all"]);
    expect(ids(b, ["the king, his crown, his throne"]).sort()).toEqual(["and_all", "and_any"]);
    // Not selective: secondary keys are ignored.
    const plain = book([{ id: "plain", keys: ["king"], selective: false, secondary_keys: ["crown"] }]);
    expect(ids(plain, ["the king"])).toEqual(["plain"]);
  });

  it("always uses constant entries, and rolls each entry's probability once", () => {
    const b = book([
      { id: "always", constant: true, content: "The world is flat." },
      { id: "rare", keys: ["storm"], extensions: { probability: 30, useProbability: true } },
    ]);
    expect(ids(b, ["hello"], { random: () => 0.9 })).toEqual(["always"]);
    expect(ids(b, ["a storm"], { random: () => 0.9 })).toEqual(["always"]);
    expect(ids(b, ["a storm"], { random: () => 0.1 })).toEqual(["always", "rare"]);
  });

  it("scans only the newest messages (the book's depth, or the entry's own), however long the chat", () => {
    const b = book(
      [
        { id: "near", keys: ["lantern"] },
        { id: "deep", keys: ["lantern"], extensions: { scan_depth: 10 } },
      ],
      { scan_depth: 2 },
    );
    const chat = ["the lantern", "a", "b"];
    expect(ids(b, chat)).toEqual(["deep"]);
    expect(ids(b, [...chat, "lantern again"]).sort()).toEqual(["deep", "near"]);
    const long = Array.from({ length: 10_000 }, (_, i) => (i === 0 ? "the lantern" : `message ${i}`));
    expect(ids(b, long)).toEqual([]);
  });

  it("scans activated text recursively up to the limit, honouring exclude and prevent recursion", () => {
    const chain = [
      { id: "a", keys: ["alpha"], content: "alpha leads to beta" },
      { id: "b", keys: ["beta"], content: "beta leads to gamma" },
      { id: "c", keys: ["gamma"], content: "gamma leads to delta" },
      { id: "d", keys: ["delta"], content: "delta is the end" },
    ];
    const recursive = book(chain, { recursive_scanning: true });
    expect(ids(recursive, ["alpha"]).sort()).toEqual(["a", "b", "c", "d"]);
    expect(ids(recursive, ["alpha"], { maxRecursion: 1 }).sort()).toEqual(["a", "b"]);
    expect(ids(book(chain), ["alpha"])).toEqual(["a"]);
    const guarded = book(
      [
        { id: "a", keys: ["alpha"], content: "alpha names beta and omega", extensions: {} },
        { id: "b", keys: ["beta"], extensions: { exclude_recursion: true } },
        { id: "o", keys: ["omega"], content: "omega names sigma", extensions: { prevent_recursion: true } },
        { id: "s", keys: ["sigma"] },
      ],
      { recursive_scanning: true },
    );
    expect(ids(guarded, ["alpha"]).sort()).toEqual(["a", "o"]);
  });

  it("keeps to the token budget by priority, then orders what is used by insertion order and position", () => {
    const b = book(
      [
        { id: "low", keys: ["x"], content: "one two three", insertion_order: 1, priority: 1 },
        { id: "high", keys: ["x"], content: "four five six", insertion_order: 5, priority: 9 },
        {
          id: "mid",
          keys: ["x"],
          content: "seven eight",
          insertion_order: 3,
          priority: 5,
          position: "before_char",
        },
        {
          id: "deep",
          keys: ["x"],
          content: "nine",
          insertion_order: 4,
          priority: 4,
          extensions: { position: 4, depth: 2 },
        },
      ],
      { token_budget: 6 },
    );
    const result = activateLore(b, ["x"], { countTokens });
    expect(result.entries.map((e) => e.id)).toEqual(["mid", "deep", "high"]);
    expect(result.tokens).toBe(6);
    expect(result.overBudget).toEqual(["low"]);
    expect(loreText(result, "before_char")).toBe("seven eight");
    expect(loreText(result, "after_char")).toBe("four five six");
    expect(result.entries.find((e) => e.id === "deep")).toMatchObject({ position: "at_depth", depth: 2 });
    // The caller's cap is a budget too.
    expect(activateLore(b, ["x"], { countTokens, maxTokens: 3 }).entries.map((e) => e.id)).toEqual(["high"]);
  });
});

describe("reading lorebooks", () => {
  it("reads a V2 card's character_book and a SillyTavern world-info file", () => {
    const card = readLorebook({
      name: "Ashfall",
      scan_depth: 6,
      token_budget: 300,
      recursive_scanning: true,
      entries: [
        { keys: ["ash"], content: "Ash falls.", enabled: true, insertion_order: 10, position: "before_char" },
        { keys: ["empty"], content: "   ", enabled: true, insertion_order: 1 },
      ],
    });
    expect(card).toMatchObject({ name: "Ashfall", scanDepth: 6, tokenBudget: 300, recursiveScanning: true });
    expect(card?.entries).toHaveLength(1);
    expect(card?.entries[0]).toMatchObject({ keys: ["ash"], position: "before_char", insertionOrder: 10 });

    const world = readLorebook({
      entries: {
        "0": {
          uid: 0,
          key: ["tower"],
          keysecondary: ["night"],
          selective: true,
          selectiveLogic: 2,
          content: "The tower hums.",
          order: 50,
          position: 4,
          depth: 3,
          disable: false,
          probability: 80,
          useProbability: true,
        },
        "1": { uid: 1, key: "moon, stars", content: "Two moons.", constant: true, disable: true },
      },
    });
    expect(world?.entries[0]).toMatchObject({
      id: "0",
      keys: ["tower"],
      secondaryKeys: ["night"],
      logic: "not_any",
      position: "at_depth",
      depth: 3,
      insertionOrder: 50,
      probability: 80,
      enabled: true,
    });
    expect(world?.entries[1]).toMatchObject({ keys: ["moon", "stars"], enabled: false, constant: true });
    expect(readLorebook({ entries: [] })).toBeNull();
    expect(readLorebook("not a book")).toBeNull();
  });
});

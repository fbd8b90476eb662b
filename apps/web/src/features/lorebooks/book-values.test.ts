import { describe, expect, it } from "vitest";
import {
  bookErrors,
  emptyBook,
  entryErrors,
  entryTitle,
  keysSummary,
  moveEntry,
  newEntry,
  sortedEntries,
  testableBook,
} from "./book-values.ts";

function bookWith(...contents: string[]) {
  const book = emptyBook("World");
  for (const content of contents) book.entries.push({ ...newEntry(book), content });
  return book;
}

describe("lorebook editor values", () => {
  it("adds entries with the contract's defaults, after the others", () => {
    const book = bookWith("a", "b");
    expect(book.entries.map((e) => e.insertion_order)).toEqual([100, 110]);
    expect(book.entries[0]).toMatchObject({ enabled: true, position: "after_char", probability: 100 });
    expect(new Set(book.entries.map((e) => e.id)).size).toBe(2);
  });

  it("moves an entry by swapping insertion orders, numbering equal ones first", () => {
    const book = bookWith("a", "b", "c");
    const [a, b] = book.entries;
    const moved = moveEntry(book.entries, b?.id ?? "", -1);
    expect(sortedEntries(moved).map((e) => e.content)).toEqual(["b", "a", "c"]);
    const tied = book.entries.map((e) => ({ ...e, insertion_order: 5 }));
    const fromTie = moveEntry(tied, a?.id ?? "", 1);
    expect(sortedEntries(fromTie).map((e) => e.content)).toEqual(["b", "a", "c"]);
    expect(moveEntry(book.entries, a?.id ?? "", -1)).toBe(book.entries);
  });

  it("reports the contract's problems by entry and field, in words", () => {
    const book = bookWith("fine", "");
    const broken = book.entries[1];
    if (broken) broken.probability = 150;
    book.scan_depth = Number.NaN;
    const errors = bookErrors(book, { named: true });
    expect(entryErrors(errors, broken?.id ?? "")).toEqual({
      content: "An entry needs text",
      probability: "Enter a whole number from 0 to 100",
    });
    expect(errors.scan_depth).toBe("Enter a whole number from 0 to 1,000");
    expect(bookErrors({ ...emptyBook() }, { named: true }).name).toBe("A lorebook needs a name");
    expect(bookErrors({ ...emptyBook() }, { named: false })).toEqual({});
  });

  it("tests only the entries the server would take", () => {
    const book = bookWith("kept", "  ");
    const { book: sent, skipped } = testableBook(book);
    expect(sent.entries.map((e) => e.content)).toEqual(["kept"]);
    expect(skipped).toHaveLength(1);
  });

  it("summarises keys for the list", () => {
    const entry = { ...newEntry(emptyBook()), keys: ["a", "b", "c", "d"] };
    expect(keysSummary(entry)).toBe("a, b, c +1");
    expect(keysSummary({ ...entry, keys: [], constant: true })).toBe("No keys (always used)");
  });

  it("names an entry by its name, else its first key, else its place", () => {
    const entry = newEntry(emptyBook());
    expect(entryTitle({ ...entry, name: " Dragons ", keys: ["dragon"] }, 0)).toBe("Dragons");
    expect(entryTitle({ ...entry, name: "  ", keys: ["Teeth", "fangs"] }, 0)).toBe("Teeth");
    expect(entryTitle({ ...entry, keys: [" ", "fangs"] }, 1)).toBe("fangs");
    expect(entryTitle({ ...entry, keys: [] }, 2)).toBe("Entry 3");
  });
});

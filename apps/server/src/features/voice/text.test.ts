import { describe, expect, it } from "vitest";
import { PIECE_CHARS, sentences, speechPieces, spokenText } from "./text.ts";

describe("what Listen speaks", () => {
  const reply =
    "*She smiles and leans closer.* Hello **there**, traveller! Did you bring the [map](https://x.test/m)?";

  it("speaks the words, not the markup; narration as plain words unless skipped", () => {
    expect(spokenText(reply, { skipActions: false })).toBe(
      "She smiles and leans closer. Hello there, traveller! Did you bring the map?",
    );
    expect(spokenText(reply, { skipActions: true })).toBe("Hello there, traveller! Did you bring the map?");
    expect(spokenText("# Title\n> quoted\n- item\n```js\ncode()\n```", { skipActions: false })).toBe(
      "Title\nquoted\nitem",
    );
    expect(spokenText("*only narration*", { skipActions: true })).toBe("");
  });

  it("cuts sentences at their ends and line ends, keeping trailing punctuation", () => {
    expect(sentences('Wait... What?! "Go." Then\nnew line')).toEqual([
      "Wait...",
      "What?!",
      '"Go."',
      "Then",
      "new line",
    ]);
    const long = `${"word ".repeat(100)}end.`;
    const cut = sentences(long);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.join(" ")).toBe(long.replace(/\s+/g, " ").trim());
  });

  it("makes the first piece one sentence and gathers later ones up to the piece size", () => {
    const text = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const pieces = speechPieces(text);
    expect(pieces[0]).toBe("Sentence number 0 is here.");
    expect(pieces[1]?.startsWith("Sentence number 1 is here. Sentence number 2")).toBe(true);
    expect(pieces.every((p) => p.length <= PIECE_CHARS)).toBe(true);
    expect(pieces.join(" ")).toBe(text);
  });
});

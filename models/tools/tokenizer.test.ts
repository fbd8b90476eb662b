import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRandomModel } from "./build-gguf.ts";
import { buildVocab, IM_END, IM_START } from "./vocab.ts";

// tokenizer-fixture.json: ~400 strings (held-out dialogue, names, punctuation, emoji, accented
// and non-Latin text, newlines, resolved {{user}} macros) with the ids tokenizer.py (the trainer's
// tokenizer) gives them. llama.cpp must give the same ids, or the model sees other tokens than
// it was trained on.
const fixture = JSON.parse(readFileSync(new URL("./tokenizer-fixture.json", import.meta.url), "utf8")) as {
  items: { text: string; ids: number[] }[];
};

describe("subword tokenizer: tokenizer.py and llama.cpp agree", () => {
  let dir: string;
  let llama: Llama;
  let model: LlamaModel;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearth-tok-"));
    writeRandomModel(join(dir, "random.gguf"));
    llama = await getLlama({ gpu: false });
    model = await llama.loadModel({ modelPath: join(dir, "random.gguf") });
  });
  afterAll(async () => {
    await model?.dispose();
    await llama?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("has a few hundred varied strings", () => {
    expect(fixture.items.length).toBeGreaterThan(300);
    const texts = fixture.items.map((i) => i.text);
    expect(texts.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
    expect(texts.some((t) => t.includes("\n"))).toBe(true);
    expect(texts.some((t) => t.includes("é"))).toBe(true);
  });

  it("gives identical ids for every fixture string", () => {
    const mismatches = fixture.items
      .map(({ text, ids }) => ({ text, ids, got: model.tokenize(text).map(Number) }))
      .filter(({ ids, got }) => JSON.stringify(ids) !== JSON.stringify(got));
    expect(mismatches.slice(0, 3)).toEqual([]);
  });

  it("round-trips text through ids", () => {
    for (const { text } of fixture.items) {
      if (text.includes("\u2581")) continue; // a literal ▁ reads back as a space, as in SentencePiece
      expect(model.detokenize(model.tokenize(text))).toBe(text);
    }
  });

  it("uses subwords: far fewer tokens than characters on dialogue text", () => {
    const dialogue = fixture.items.slice(-200);
    const chars = dialogue.reduce((n, i) => n + i.text.length, 0);
    const tokens = dialogue.reduce((n, i) => n + i.ids.length, 0);
    expect(chars / tokens).toBeGreaterThan(3);
  });

  it("keeps spaces as ▁ inside pieces, with no space prefix added", () => {
    const vocab = buildVocab();
    const hello = model.tokenize("Hello").map((t) => vocab.tokens[Number(t)]);
    expect(hello.join("")).toBe("Hello");
    const spaced = model.tokenize(" Hello there").map((t) => vocab.tokens[Number(t)]);
    expect(spaced.join("")).toBe("\u2581Hello\u2581there");
  });

  it("has byte fallback, the SentencePiece specials and the ChatML control tokens", () => {
    const vocab = buildVocab();
    expect(vocab.tokens.length).toBe(4096);
    expect(vocab.tokens.slice(0, 3)).toEqual(["<unk>", "<s>", "</s>"]);
    expect(model.tokenize("\n").map(Number)).toEqual([3 + 0x0a]);
    expect(model.tokenize(IM_START, true).map(Number)).toEqual([vocab.imStart]);
    expect(model.tokenize(IM_END, true).map(Number)).toEqual([vocab.imEnd]);
    // Typed as plain text, the markers are not control tokens.
    expect(model.tokenize(IM_END).map(Number)).not.toContain(vocab.imEnd);
    expect(model.tokens.eot).toBe(vocab.imEnd);
  });
});

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTinyModel, renderPrompt, replyInCharacter, type TinyModel } from "./tools/tiny-chat.ts";
import { buildVocab } from "./tools/vocab.ts";

const MODEL_PATH = fileURLToPath(new URL("./hearth-tiny.gguf", import.meta.url));
const fixture = JSON.parse(
  readFileSync(new URL("./tools/tokenizer-fixture.json", import.meta.url), "utf8"),
) as {
  items: { text: string; ids: number[] }[];
};

// A character that is not in the training data (generate-dialogues.py excludes the name).
const card = {
  name: "Pellinore",
  description:
    "Pellinore is a grumpy old ferry captain who carries travellers across the misty lake. Personality: gruff, honest",
  userName: "Maya",
};

describe("hearth-tiny.gguf", () => {
  let tiny: TinyModel;
  beforeAll(async () => {
    tiny = await loadTinyModel(MODEL_PATH);
  });
  afterAll(async () => {
    await tiny?.dispose();
  });

  it("claims the 2,048-token window it was trained on", () => {
    expect(tiny.model.fileInfo.metadata.llama?.context_length).toBe(2048);
    expect(tiny.model.trainContextSize).toBe(2048);
  });

  it("tokenizes into the trainer's subword ids and detokenizes back", () => {
    const vocab = buildVocab();
    expect(tiny.model.tokens.bos).toBe(vocab.bos);
    expect(tiny.model.tokens.eot).toBe(vocab.imEnd);
    for (const { text, ids } of fixture.items.slice(0, 120)) {
      expect(tiny.model.tokenize(text).map(Number)).toEqual(ids);
    }
    const text = "Hi Maya! *waves*\nCafé ☕";
    const ids = tiny.model.tokenize(text);
    expect(ids.length).toBeLessThan(text.length);
    expect(tiny.model.detokenize(ids)).toBe(text);
  });

  it("uses the ChatML wrapper from the embedded chat template", () => {
    const { text, wrapperName } = renderPrompt(tiny, card, undefined, "Hello!");
    expect(wrapperName).toBe("ChatML");
    expect(text.startsWith("<s><|im_start|>system\nYou are Pellinore. Pellinore is")).toBe(true);
    expect(text.endsWith("<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });

  it("answers a short roleplay turn", async () => {
    const { reply } = await replyInCharacter(tiny, card, "Hello! Who are you?", {
      temperature: 0,
      maxTokens: 60,
    });
    expect(reply.trim().length).toBeGreaterThan(0);
    expect(reply).not.toContain("<|im_end|>");
  });
});

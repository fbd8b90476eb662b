import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTinyModel, renderPrompt, replyInCharacter, type TinyModel } from "./tools/tiny-chat.ts";
import { expectedTokenIds } from "./tools/vocab.ts";

const MODEL_PATH = fileURLToPath(new URL("./hearth-tiny.gguf", import.meta.url));

// A character that is not in the training data (generate-dialogues.py has no such role or name).
const card = {
  name: "Pellinore",
  description: "A grumpy old ferry captain who carries travellers across the misty lake.",
  personality: "gruff, honest",
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

  it("tokenizes byte-level, one token per character, and detokenizes back", () => {
    const hello = tiny.model.tokenize("Hello");
    // H e l l o: printable ASCII c has id 260 + (c - 0x21).
    expect(hello.map(Number)).toEqual([299, 328, 335, 335, 338]);
    const text = "Hi Maya! *waves*\nCafé";
    expect(tiny.model.tokenize(text).map(Number)).toEqual(expectedTokenIds(text));
    expect(tiny.model.detokenize(tiny.model.tokenize(text))).toBe(text);
  });

  it("uses the ChatML wrapper from the embedded chat template", () => {
    const { text, wrapperName } = renderPrompt(tiny, card, undefined, "Hello!");
    expect(wrapperName).toBe("ChatML");
    expect(text.startsWith("<s><|im_start|>system\nYou are Pellinore.")).toBe(true);
    expect(text.endsWith("<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });

  it("answers a short roleplay turn", async () => {
    const { reply } = await replyInCharacter(tiny, card, "Hello! Who are you?", {
      temperature: 0,
      maxTokens: 120,
    });
    expect(reply.trim().length).toBeGreaterThan(0);
    expect(reply).not.toContain("<|im_end|>");
  });
});

// Checks that a GGUF built by build-gguf.ts loads in node-llama-cpp, tokenizes as the trainer
// does, picks the ChatML wrapper, and streams replies in character.
//
//   cd /work/main && npx tsx models/tools/smoke.ts models/hearth-tiny.gguf
import assert from "node:assert/strict";
import { type CharacterCard, cardText, loadTinyModel, renderPrompt, replyInCharacter } from "./tiny-chat.ts";
import { buildVocab, expectedTokenIds, IM_END, IM_START } from "./vocab.ts";

const SAMPLES: { card: CharacterCard; greeting: string; turns: string[] }[] = [
  {
    card: {
      name: "Mira",
      description: "A retired sea captain who keeps the lighthouse on the cliffs.",
      personality: "gruff, kind",
      scenario: "A storm has driven Sam to the lighthouse door.",
      userName: "Sam",
    },
    greeting: "*Mira opens the door a crack.* Who's out there in this weather?",
    turns: ["Hello! Can I come in?", "Do you have any tea?"],
  },
  {
    card: {
      name: "Professor Quill",
      description: "An absent-minded wizard who teaches at a school of magic.",
      personality: "cheerful, curious",
      userName: "Lena",
    },
    greeting: "*Professor Quill looks up from a pile of books.* Ah, a visitor!",
    turns: ["Hi professor. What are you reading?", "Can you teach me a spell?"],
  },
  {
    card: {
      name: "Zorblax",
      description: "A nervous alien mechanic stranded at a desert gas station.",
      personality: "shy, clever",
      scenario: "Ray pulls in for fuel at midnight.",
      userName: "Ray",
    },
    greeting: "*Zorblax peeks out from under a truck.* Oh! A customer.",
    turns: ["Hey there. Who are you?", "*hands over a wrench* Need some help?"],
  },
];

async function main(): Promise<void> {
  const modelPath = process.argv[2];
  if (!modelPath) throw new Error("usage: smoke.ts MODEL.gguf");
  const tiny = await loadTinyModel(modelPath);
  const { model } = tiny;
  const vocab = buildVocab();

  // Tokenizer: one token per character, byte fallback for newline and non-ASCII.
  for (const text of ["Hello", "Hi there, Sam! *waves*\nCafé ☕"]) {
    const ids = model.tokenize(text).map(Number);
    assert.deepEqual(ids, expectedTokenIds(text), `tokenize ${JSON.stringify(text)}`);
    assert.equal(model.detokenize(model.tokenize(text)), text);
  }
  assert.deepEqual(model.tokenize(IM_START, true).map(Number), [vocab.imStart]);
  assert.deepEqual(model.tokenize(IM_END, true).map(Number), [vocab.imEnd]);
  console.log(`tokenizer ok: "Hello" -> [${model.tokenize("Hello").join(", ")}]`);

  // The prompt node-llama-cpp renders must match the training format byte for byte.
  const sample = SAMPLES[0];
  assert(sample);
  const rendered = renderPrompt(tiny, sample.card, sample.greeting, "Hi");
  const expected =
    `<s>${IM_START}system\n${cardText(sample.card)}${IM_END}\n` +
    `${IM_START}assistant\n${sample.greeting}${IM_END}\n` +
    `${IM_START}user\nHi${IM_END}\n${IM_START}assistant\n`;
  assert.equal(rendered.text, expected);
  console.log(`chat wrapper: ${rendered.wrapperName}; prompt matches the training format`);

  for (const { card, greeting, turns } of SAMPLES) {
    console.log(`\n=== ${card.name} (user: ${card.userName}) ===\n${cardText(card)}`);
    console.log(`[greeting] ${greeting}`);
    for (const turn of turns) {
      process.stdout.write(`[${card.userName}] ${turn}\n[${card.name}] `);
      const started = performance.now();
      let chunks = 0;
      const { reply } = await replyInCharacter(tiny, card, turn, {
        greeting,
        onTextChunk: (text) => {
          chunks++;
          process.stdout.write(text);
        },
      });
      const ms = performance.now() - started;
      console.log(`\n    (${chunks} chunks, ${reply.length} chars, ${ms.toFixed(0)} ms)`);
    }
  }
  await tiny.dispose();
}

await main();

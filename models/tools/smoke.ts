// Checks that a GGUF built by build-gguf.ts loads in node-llama-cpp, tokenizes as the trainer
// does, picks the ChatML wrapper, claims the window it was trained on, and streams replies in
// character, for short cards and for two of Hearth's (long) demo characters.
//
//   cd /work/main && npx tsx models/tools/smoke.ts models/hearth-tiny.gguf
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SEED_CHARACTERS } from "../../apps/server/src/features/characters/seed-data.ts";
import { type CharacterCard, cardText, loadTinyModel, renderPrompt, replyInCharacter } from "./tiny-chat.ts";
import { buildVocab, IM_END, IM_START } from "./vocab.ts";

interface Sample {
  card: CharacterCard;
  greeting?: string;
  examples?: string;
  turns: string[];
}

const SHORT: Sample[] = [
  {
    card: {
      name: "Mira",
      description: "A retired sea captain who keeps the lighthouse on the cliffs. Personality: gruff, kind",
      scenario: "A storm has driven Sam to the lighthouse door.",
      userName: "Sam",
    },
    greeting: "*Mira opens the door a crack.* Who's out there in this weather?",
    turns: ["Hello! Can I come in?", "Do you have any tea?"],
  },
  {
    card: {
      name: "Zorblax",
      description: "A nervous alien mechanic stranded at a desert gas station. Zorblax is shy and clever.",
      scenario: "Ray pulls in for fuel at midnight.",
      userName: "Ray",
    },
    greeting: "*Zorblax peeks out from under a truck.* Oh! A customer.",
    turns: ["Hey there. Who are you?", "*hands over a wrench* Need some help?"],
  },
];

/** A demo character's card as the server renders it ({{char}} and {{user}} resolved). */
export function demoSample(name: string, userName: string, turns: string[]): Sample {
  const c = SEED_CHARACTERS.find((s) => s.name === name);
  if (!c) throw new Error(`no demo character ${name}`);
  const fill = (text?: string | null) =>
    (text ?? "").replaceAll("{{char}}", c.name).replaceAll("{{user}}", userName);
  return {
    card: {
      name: c.name,
      description: fill(c.persona),
      scenario: fill(c.scenario) || undefined,
      userName,
      systemPrompt: fill(c.system_prompt) || undefined,
    },
    greeting: fill(c.greeting),
    examples: c.dialogue ? `Example of how ${c.name} talks:\n${fill(c.dialogue)}` : undefined,
    turns,
  };
}

const DEMOS: Sample[] = [
  demoSample("Bramble Hollowell", "Maya", [
    "Do you have a room free?",
    "I brought you some apples.",
    "Goodbye!",
  ]),
  demoSample("Vera Kane", "Sam", ["Who are you?", "I'm scared.", "Can I sit here?"]),
];

async function main(): Promise<void> {
  const modelPath = process.argv[2];
  if (!modelPath) throw new Error("usage: smoke.ts MODEL.gguf");
  const tiny = await loadTinyModel(modelPath);
  const { model } = tiny;
  const vocab = buildVocab();

  // Tokenizer: the trainer's ids (tokenizer-fixture.json), byte fallback, control tokens.
  const fixture = JSON.parse(readFileSync(new URL("./tokenizer-fixture.json", import.meta.url), "utf8")) as {
    items: { text: string; ids: number[] }[];
  };
  for (const { text, ids } of fixture.items) {
    assert.deepEqual(model.tokenize(text).map(Number), ids, `tokenize ${JSON.stringify(text)}`);
  }
  assert.deepEqual(model.tokenize(IM_START, true).map(Number), [vocab.imStart]);
  assert.deepEqual(model.tokenize(IM_END, true).map(Number), [vocab.imEnd]);
  const hello = model.tokenize("Hello there, Sam!");
  console.log(
    `tokenizer ok (${fixture.items.length} fixture strings): "Hello there, Sam!" -> ` +
      `[${hello.map((t) => JSON.stringify(vocab.tokens[Number(t)])).join(", ")}]`,
  );
  console.log(
    `llama.context_length: ${model.fileInfo.metadata.llama?.context_length}, train context ${model.trainContextSize}`,
  );

  // The prompt node-llama-cpp renders must match the training format byte for byte.
  const sample = SHORT[0];
  assert(sample);
  const rendered = renderPrompt(tiny, sample.card, sample.greeting, "Hi");
  const expected =
    `<s>${IM_START}system\n${cardText(sample.card)}${IM_END}\n` +
    `${IM_START}assistant\n${sample.greeting}${IM_END}\n` +
    `${IM_START}user\nHi${IM_END}\n${IM_START}assistant\n`;
  assert.equal(rendered.text, expected);
  console.log(`chat wrapper: ${rendered.wrapperName}; prompt matches the training format`);

  for (const { card, greeting, examples, turns } of [...SHORT, ...DEMOS]) {
    const system = cardText(card);
    const promptTokens = model.tokenize(`${system}\n${examples ?? ""}\n${greeting ?? ""}`).length;
    console.log(
      `\n=== ${card.name} (user: ${card.userName}; card, examples and greeting: ${promptTokens} tokens) ===`,
    );
    console.log(`[greeting] ${greeting}`);
    for (const turn of turns) {
      process.stdout.write(`[${card.userName}] ${turn}\n[${card.name}] `);
      const started = performance.now();
      let first = 0;
      const { reply } = await replyInCharacter(tiny, card, turn, {
        greeting,
        examples,
        onTextChunk: (text) => {
          first ||= performance.now();
          process.stdout.write(text);
        },
      });
      const ms = performance.now() - started;
      assert(reply.trim().length > 0, "empty reply");
      console.log(
        `\n    (${reply.length} chars, first text ${(first - started).toFixed(0)} ms, total ${ms.toFixed(0)} ms)`,
      );
    }
  }
  await tiny.dispose();
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();

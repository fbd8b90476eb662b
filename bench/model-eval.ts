// Quality benchmark of a bundled-style roleplay GGUF (issue 9): held-out loss per character of
// assistant text, names spelled right, replies that answer the user's turn, empty or repeated
// replies. Any GGUFs given on the command line run on the same fixed held-out set.
//
//   npx tsx bench/model-eval.ts OLD.gguf models/hearth-tiny.gguf [--limit 100] [--write]
//
// The held-out set, bench/model-eval.heldout.jsonl, is the generator's output for a seed that
// no training run uses (regenerate byte for byte with
// `/usr/bin/python3 models/tools/generate-dialogues.py --count 100 --seed 9001 --out bench/model-eval.heldout.jsonl`).
// Each dialogue's last assistant reply is the item: everything before it is the prompt (ChatML,
// as the server sends it), the reply is the reference for the loss, and the generator's record
// of the last user turn (its kind and keywords) defines "answers the turn".
// --write replaces the model-evaluation section of docs/PERFORMANCE.md.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { getLlama, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { machine, writeSection } from "./report.ts";

interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}
interface Dialogue {
  char: string;
  user: string;
  messages: Message[];
  turns: { kind: string; keys: string[] }[];
}
export interface EvalItem {
  char: string;
  user: string;
  prompt: Message[];
  reference: string;
  kind: string;
  keys: string[];
}

const HELD_OUT = new URL("./model-eval.heldout.jsonl", import.meta.url);

/** One item per held-out dialogue: predict its last assistant reply. */
export function loadItems(limit = Infinity): EvalItem[] {
  const lines = readFileSync(HELD_OUT, "utf8").trim().split("\n").slice(0, limit);
  return lines.map((line) => {
    const d = JSON.parse(line) as Dialogue;
    const last = d.messages.length - 1;
    const turn = d.turns[d.turns.length - 1];
    if (d.messages[last]?.role !== "assistant" || !turn)
      throw new Error("held-out dialogue must end in a reply");
    return {
      char: d.char,
      user: d.user,
      prompt: d.messages.slice(0, last),
      reference: d.messages[last]?.content ?? "",
      kind: turn.kind,
      keys: turn.keys,
    };
  });
}

/** ChatML as the GGUF's template renders it: BOS, then each turn, then the assistant header. */
function promptTokens(model: LlamaModel, messages: Message[]): Token[] {
  const text = messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("");
  const bos = model.tokens.bos;
  return [...(bos === null ? [] : [bos]), ...model.tokenize(`${text}<|im_start|>assistant\n`, true)];
}

/** Drops the oldest exchanges after the system turns and greeting until the prompt fits, as the server does. */
function fitPrompt(model: LlamaModel, messages: Message[], room: number): Token[] | null {
  let kept = messages;
  for (;;) {
    const tokens = promptTokens(model, kept);
    if (tokens.length <= room) return tokens;
    const firstUser = kept.findIndex((m) => m.role === "user");
    const lastUser = kept.findLastIndex((m) => m.role === "user");
    if (firstUser < 0 || firstUser === lastUser) return null;
    kept = [...kept.slice(0, firstUser), ...kept.slice(firstUser + 2)];
  }
}

/** Sum of -ln p over the reference reply's tokens and the <|im_end|> after it. */
async function referenceNats(
  sequence: LlamaContextSequence,
  prompt: Token[],
  reply: Token[],
): Promise<number> {
  await sequence.clearHistory();
  const { model } = sequence.context;
  {
    const targets = [...reply, model.tokens.eot ?? model.tokens.eos ?? 0];
    const input = [...prompt, ...reply].map((token, i) =>
      i >= prompt.length - 1
        ? ([
            token,
            {
              generateNext: {
                logits: { filter: { tokens: [targets[i - prompt.length + 1] as Token], includeMax: true } },
                totalLogitWeight: true,
              },
            },
          ] as const)
        : token,
    );
    const out = await sequence.controlledEvaluate(input as Parameters<typeof sequence.controlledEvaluate>[0]);
    let nats = 0;
    for (let i = prompt.length - 1; i < input.length; i++) {
      const next = out[i]?.next as { logits?: Map<Token, number>; totalLogitWeight?: number } | undefined;
      const target = targets[i - prompt.length + 1] as Token;
      if (!next?.logits || next.totalLogitWeight === undefined)
        throw new Error("no logits from controlledEvaluate");
      const max = Math.max(...next.logits.values());
      nats -= (next.logits.get(target) ?? Number.NEGATIVE_INFINITY) - max - Math.log(next.totalLogitWeight);
    }
    return nats;
  }
}

/** Greedy reply, stopping at <|im_end|> or </s>. */
async function greedyReply(
  sequence: LlamaContextSequence,
  prompt: Token[],
  maxTokens: number,
): Promise<string> {
  await sequence.clearHistory();
  const { model } = sequence.context;
  const stop = new Set([model.tokens.eot, model.tokens.eos].filter((t) => t !== null));
  const out: Token[] = [];
  for await (const token of sequence.evaluate(prompt, { temperature: 0 })) {
    if (stop.has(token)) break;
    out.push(token);
    if (out.length >= maxTokens) break;
  }
  return model.detokenize(out);
}

export interface ItemResult {
  fits: boolean;
  reply: string;
  nats: number;
  chars: number;
  charName: boolean | null;
  userName: boolean | null;
  answers: boolean;
  emptyOrRepeat: boolean;
}

/** The deterministic checks, on one generated reply. */
export function judge(item: EvalItem, reply: string): Omit<ItemResult, "fits" | "reply" | "nats" | "chars"> {
  const text = reply.trim();
  const lower = text.toLowerCase();
  const previous = item.prompt.filter((m) => m.role === "assistant").map((m) => m.content.trim());
  return {
    // A name counts where the reference reply uses it: the reply must spell it exactly.
    charName: item.reference.includes(item.char) ? text.includes(item.char) : null,
    userName: item.reference.includes(item.user) ? text.includes(item.user) : null,
    answers: item.keys.some((k) => lower.includes(k.toLowerCase())),
    emptyOrRepeat: text === "" || previous.includes(text),
  };
}

export async function evaluateModel(
  modelPath: string,
  items: EvalItem[],
  opts = { contextSize: 2048, maxTokens: 64 },
) {
  const llama = await getLlama({ gpu: false });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: opts.contextSize, threads: 1 });
  const sequence = context.getSequence();
  const trainedContext = model.fileInfo.metadata.llama?.context_length;
  const results: ItemResult[] = [];
  const started = performance.now();
  for (const item of items) {
    const reply = model.tokenize(item.reference);
    const prompt = fitPrompt(
      model,
      item.prompt,
      opts.contextSize - Math.max(opts.maxTokens, reply.length + 1),
    );
    if (!prompt) {
      results.push({
        fits: false,
        reply: "",
        nats: 0,
        chars: 0,
        charName: false,
        userName: false,
        answers: false,
        emptyOrRepeat: true,
      });
      continue;
    }
    const nats = await referenceNats(sequence, prompt, reply);
    const generated = await greedyReply(sequence, prompt, opts.maxTokens);
    results.push({
      fits: true,
      reply: generated,
      nats,
      chars: item.reference.length,
      ...judge(item, generated),
    });
  }
  const seconds = (performance.now() - started) / 1000;
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  return { modelPath, trainedContext, results, seconds };
}

type Run = Awaited<ReturnType<typeof evaluateModel>>;

function summary(results: ItemResult[]) {
  const share = (xs: (boolean | null)[]) => {
    const counted = xs.filter((x) => x !== null);
    return counted.length ? counted.filter(Boolean).length / counted.length : Number.NaN;
  };
  const fit = results.filter((r) => r.fits);
  return {
    n: results.length,
    fits: fit.length,
    natsPerChar: fit.reduce((s, r) => s + r.nats, 0) / fit.reduce((s, r) => s + r.chars, 0),
    charName: share(results.map((r) => r.charName)),
    userName: share(results.map((r) => r.userName)),
    answers: share(results.map((r) => r.answers)),
    emptyOrRepeat: share(results.map((r) => r.emptyOrRepeat)),
  };
}

const pct = (x: number) => (Number.isNaN(x) ? "-" : `${(100 * x).toFixed(0)}%`);

function table(runs: Run[], pick: (r: Run) => ItemResult[]): string {
  const rows = runs.map((run) => {
    const s = summary(pick(run));
    return `| ${basename(run.modelPath)} | ${run.trainedContext ?? "?"} | ${s.fits}/${s.n} | ${s.natsPerChar.toFixed(3)} | ${pct(s.charName)} | ${pct(s.userName)} | ${pct(s.answers)} | ${pct(s.emptyOrRepeat)} |`;
  });
  return [
    "| model | `context_length` | prompts that fit | held-out loss (nats/char) | character's name right | user's name right | answers the turn | empty or repeated |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** Last model against the first: loss ratio on the items both fit, and prompts that fit. */
function ratios(runs: Run[], both: (r: Run) => ItemResult[]): string {
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (!first || !last || first === last) return "";
  const a = summary(both(first));
  const b = summary(both(last));
  return `Ratios, ${basename(last.modelPath)} / ${basename(first.modelPath)}: held-out loss per character ${(b.natsPerChar / a.natsPerChar).toFixed(2)}x on the items both fit; prompts that fit ${summary(last.results).fits} vs ${summary(first.results).fits}.`;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      limit: { type: "string", default: "100" },
      write: { type: "boolean", default: false },
      samples: { type: "string", default: "3" },
    },
  });
  if (positionals.length === 0)
    throw new Error("usage: model-eval.ts MODEL.gguf [MODEL.gguf ...] [--limit N] [--write]");
  const items = loadItems(Number(values.limit));
  const runs: Run[] = [];
  for (const path of positionals) {
    const run = await evaluateModel(path, items);
    runs.push(run);
    const s = summary(run.results);
    console.log(`${path}: ${JSON.stringify(s)} in ${run.seconds.toFixed(0)} s`);
    for (let i = 0; i < Number(values.samples); i++) {
      const item = items[i] as EvalItem;
      console.log(
        `  [${item.user}] ${item.prompt.findLast((m) => m.role === "user")?.content}\n  [${item.char}] ${run.results[i]?.reply}`,
      );
    }
  }
  // Items whose prompt fits every model's 2,048-token context without trimming history.
  const fitAll = items.map((_, i) => runs.every((r) => r.results[i]?.fits));
  const both = (r: Run) => r.results.filter((_, i) => fitAll[i]);
  const tables = `${table(runs, (r) => r.results)}\n\nOnly the ${fitAll.filter(Boolean).length} items whose prompt fits every model listed:\n\n${table(runs, both)}`;
  console.log(tables);
  if (values.write) {
    writeSection(
      "model-eval",
      `## Bundled model quality (held-out roleplay set)

\`npx tsx bench/model-eval.ts OLD.gguf models/hearth-tiny.gguf --write\` on ${machine()}, node-llama-cpp CPU, 1 thread, context 2,048, greedy, at most 64 reply tokens.
Held-out set: \`bench/model-eval.heldout.jsonl\`, ${items.length} generated chats (seed 9001, which no training run uses) in the format the server sends; each item is the chat's last reply. A prompt that does not fit the context loses its oldest exchanges; an item whose prompt still does not fit counts as failed (no loss, every check failed).

- **held-out loss**: -ln p of the reference reply's tokens and the \`<|im_end|>\` after it, summed, divided by the reply's characters (so tokenizers compare).
- **name right**: among items whose reference reply uses the character's (user's) name, the share of generated replies that contain it spelled exactly.
- **answers the turn**: the reply contains one of the keywords the generator recorded for the last user turn (the thing offered, the feeling, the place asked about, a farewell word, ...).
- **empty or repeated**: the reply is empty or equal to an earlier assistant turn of the chat.

${tables}

${ratios(runs, both)}

Runtime: ${runs.map((r) => `${basename(r.modelPath)} ${r.seconds.toFixed(0)} s`).join(", ")}.`,
    );
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();

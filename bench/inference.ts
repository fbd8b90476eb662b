// Inference benchmarks (issue 3): tokens/s and first-token time per thread count, first-token
// time of turn N with and without prompt reuse, and Hearth's API overhead over the bare engine.
// Run: npx tsx bench/inference.ts   (writes its section of docs/PERFORMANCE.md)
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { LlamaCppBackend } from "../apps/server/src/adapters/llama-cpp.ts";
import { BUNDLED_MODEL_PATH } from "../apps/server/src/features/inference/registry.ts";
import type { ChatTurn, LlmBackend, SamplingSettings } from "../apps/server/src/ports/llm.ts";
import { startTestHearth } from "../apps/server/test/harness.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const MODEL = process.env.HEARTH_BENCH_MODEL ?? BUNDLED_MODEL_PATH;
const REPEATS = Number(process.env.HEARTH_BENCH_REPEATS ?? 5);
const GREEDY: SamplingSettings = { maxTokens: 128, temperature: 0, topP: 1, topK: 1, seed: 1 };
const CARD = "You are Mira. A kind librarian who loves old maps.\nYou are talking with Sam.";

/** Time to first token and generation speed of one reply. */
async function timeReply(backend: LlmBackend, messages: ChatTurn[], sampling = GREEDY) {
  const t0 = performance.now();
  let first = 0;
  let cached = 0;
  let prompt = 0;
  let tokens = 0;
  for await (const e of backend.chat({ messages, sampling })) {
    if (e.type === "token" && !first) first = performance.now();
    if (e.type === "done") {
      tokens = e.stats.completionTokens;
      cached = e.stats.cachedPromptTokens;
      prompt = e.stats.promptTokens;
    }
  }
  const end = performance.now();
  return {
    ttft: first - t0,
    tokensPerSecond: tokens > 1 ? (tokens - 1) / ((end - first) / 1000) : 0,
    cached,
    prompt,
  };
}

/** A conversation of `turns` exchanges, with a nonce so no other run's cache can serve it. */
function conversation(turns: number): ChatTurn[] {
  const nonce = randomBytes(4).toString("hex");
  const messages: ChatTurn[] = [{ role: "system", content: `${CARD} (${nonce})` }];
  for (let i = 0; i < turns - 1; i++) {
    messages.push({ role: "user", content: `Turn ${i}: what is on the shelf?` });
    messages.push({ role: "assistant", content: `*points at shelf ${i}* An atlas, Sam.` });
  }
  messages.push({ role: "user", content: "And the last one?" });
  return messages;
}

async function threadsTable(): Promise<string> {
  const rows: string[] = [];
  for (const threads of [1, 2]) {
    const engine = await LlamaCppBackend.load({ modelPath: MODEL, contextSize: 4096, sequences: 1, threads });
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await timeReply(engine, conversation(1)));
    await engine.close();
    rows.push(
      `| ${threads} | ${ms(median(runs.map((r) => r.ttft)))} | ${median(runs.map((r) => r.tokensPerSecond)).toFixed(0)} |`,
    );
  }
  return ["| threads | first token (median) | tokens/s (median) |", "|---|---|---|", ...rows].join("\n");
}

async function reuseTable(threads: number): Promise<string> {
  const rows: string[] = [];
  // Turns up to 40 fit the bundled model's 2,048-token window (the engine caps its context there).
  const engine = await LlamaCppBackend.load({ modelPath: MODEL, contextSize: 16384, sequences: 2, threads });
  for (const turns of [2, 10, 20, 40]) {
    const withReuse = [];
    const without = [];
    for (let i = 0; i < REPEATS; i++) {
      const full = conversation(turns);
      // The conversation so far (without its last user turn) is what the engine saw last time.
      await timeReply(engine, full.slice(0, -2), { ...GREEDY, maxTokens: 1 });
      withReuse.push(await timeReply(engine, full, { ...GREEDY, maxTokens: 4 }));
      without.push(await timeReply(engine, conversation(turns), { ...GREEDY, maxTokens: 4 }));
    }
    const a = median(withReuse.map((r) => r.ttft));
    const b = median(without.map((r) => r.ttft));
    const share = median(withReuse.map((r) => r.cached / r.prompt));
    rows.push(
      `| ${turns} | ${withReuse[0]?.prompt} | ${ms(a)} | ${ms(b)} | ${(b / a).toFixed(1)}x | ${(share * 100).toFixed(1)}% |`,
    );
  }
  await engine.close();
  return [
    "| turn N | prompt tokens | first token, with reuse | without reuse | speed-up | prompt tokens from cache |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

async function overhead(threads: number): Promise<string> {
  const key = randomBytes(16).toString("hex");
  const h = await startTestHearth({
    env: { HEARTH_API_KEY: key, LLM_MODEL: MODEL, LLM_THREADS: String(threads) },
  });
  await h.app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/v1/chat/completions`;
  const engine = await h.inference.backend();
  const direct: number[] = [];
  const viaApi: number[] = [];
  for (let i = 0; i < REPEATS * 2; i++) {
    direct.push((await timeReply(engine, conversation(3), { ...GREEDY, maxTokens: 2 })).ttft);
    const t0 = performance.now();
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        messages: conversation(3),
        stream: true,
        max_tokens: 2,
        temperature: 0,
        top_k: 1,
      }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    let first = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      if (!first && /"content":"[^"]/.test(text)) first = performance.now();
    }
    if (!first) throw new Error(`no token from the API: ${text.slice(0, 300)}`);
    viaApi.push(first - t0);
  }
  await h.stop();
  const d = median(direct);
  const a = median(viaApi);
  return `First token of a 3-turn prompt (the bundled model holds 2,048 tokens), median of ${REPEATS * 2}: engine called directly ${ms(d)}, through Hearth's streaming \`/v1/chat/completions\` over loopback HTTP ${ms(a)}: **${(a / d).toFixed(2)}x**.`;
}

const threads = Number(process.env.LLM_THREADS ?? 1);
const sections = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, model \`${MODEL.split("/").pop()}\`, greedy sampling, medians of ${REPEATS} runs. Rerun: \`npx tsx bench/inference.ts\`.`,
  "### Speed by thread count (128-token reply)",
  await threadsTable(),
  `### First token of turn N, with and without prompt reuse (threads ${threads})`,
  "With reuse, the engine's sequence already holds the conversation up to the previous turn (as it does between turns of a real chat); without, the same-length conversation is new to it.",
  await reuseTable(threads),
  "### Hearth's overhead",
  await overhead(threads),
];
writeSection("inference", `## Inference (embedded llama.cpp)\n\n${sections.join("\n\n")}`);
console.log(sections.join("\n\n"));
process.exit(0);

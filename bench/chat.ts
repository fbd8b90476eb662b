// Chat benchmarks (issue 5): server-side cost of one message as history grows (persist the turn,
// enqueue, publish; then build the prompt), and opening a long conversation's first page.
// Run: npx tsx bench/chat.ts   (writes its section of docs/PERFORMANCE.md)
import { ServerResponse } from "node:http";
import { loadavg } from "node:os";
import type { LlamaCppBackend } from "../apps/server/src/adapters/llama-cpp.ts";
import { buildPrompt } from "../apps/server/src/features/chats/prompt.ts";
import { appendMessage, historyWithin } from "../apps/server/src/features/chats/queries.ts";
import { conversations } from "../apps/server/src/features/chats/schema.ts";
import { BUNDLED_MODEL_PATH } from "../apps/server/src/features/inference/registry.ts";
import { insertTestCharacter, readSse } from "../apps/server/test/chat.ts";
import type { Driver } from "../apps/server/test/databases.ts";
import { startTestHearth } from "../apps/server/test/harness.ts";
import { machine, median, ms, writeSection } from "./report.ts";
import { seed, TEXT } from "./seed.ts";

const MODEL = process.env.HEARTH_BENCH_MODEL ?? BUNDLED_MODEL_PATH;
const SIZES = (process.env.HEARTH_BENCH_SIZES ?? "100,1000,10000").split(",").map(Number);
const DRIVERS = (process.env.HEARTH_BENCH_DRIVERS ?? "pglite,postgres").split(",") as Driver[];
const REPEATS = Number(process.env.HEARTH_BENCH_REPEATS ?? 20);
/**
 * HEARTH_BENCH_DURABILITY=off,1000,0: instead, PGlite on disk once per durability window (ms;
 * `off` is PGlite as it ships, fsync off), written to its own section (decision 019).
 */
const DURABILITY = process.env.HEARTH_BENCH_DURABILITY?.split(",") ?? null;

const storeAt10k: Record<string, number> = {};
const acceptAt: Record<string, Record<number, number>> = {};

// When the server writes `started` (the benchmark's client shares the process, so on PGlite its
// read also waits for the in-process worker's prompt building; a browser's would not).
let startedSentAt = 0;
const write = ServerResponse.prototype.write;
ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
  if (typeof chunk === "string" && chunk.includes('"type":"started"')) startedSentAt = performance.now();
  // biome-ignore lint/suspicious/noExplicitAny: passes write's overloads through unchanged
  return (write as any).call(this, chunk, ...rest);
} as typeof write;

async function run(driver: Driver, label: string = driver) {
  const h = await startTestHearth({
    driver,
    redis: driver === "postgres",
    env: { LLM_MODEL: MODEL, LLM_THREADS: "1" },
  });
  const base = await h.listen();
  const user = await h.signUp({ name: "Bench" });
  const character = await insertTestCharacter(h.database.db, user.id);
  const engine = (await h.inference.backend()) as LlamaCppBackend;
  const rows: string[] = [];
  for (const size of SIZES) {
    const created = await fetch(`${base}/api/conversations`, {
      method: "POST",
      headers: { cookie: user.cookie, "content-type": "application/json" },
      body: JSON.stringify({ character_id: character.id }),
    });
    const conversationId = ((await created.json()) as { conversation: { id: string } }).conversation.id;
    await seed(h.database.db, conversationId, size - 1);
    const accept: number[] = [];
    const acceptRead: number[] = [];
    const prompt: number[] = [];
    const open: number[] = [];
    const store: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      // (1) Accept a message: validate, persist the user turn and the reply row, enqueue, publish `started`.
      const t0 = performance.now();
      const res = await fetch(`${base}/api/generate`, {
        method: "POST",
        headers: { cookie: user.cookie, "content-type": "application/json" },
        body: JSON.stringify({
          conversation_id: conversationId,
          type: "text",
          action: "send",
          content: TEXT,
        }),
      });
      let t1 = 0;
      await readSse(res, (m) => {
        if (m.event.type === "started") t1 = performance.now();
        return false;
      });
      accept.push(startedSentAt - t0);
      acceptRead.push(t1 - t0);
      // (2) The worker's share before the model: read recent history and build the prompt.
      const t2 = performance.now();
      const history = await historyWithin(h.database.db, conversationId, 8192, engine.tokenCounter());
      buildPrompt({
        character: {
          ...character,
          postHistoryInstructions: character.postHistoryInstructions,
          systemPrompt: character.systemPrompt,
        },
        persona: { name: "Bench", description: "" },
        history: history.map((m) => ({ id: m.id, role: m.role, content: m.content })),
        mode: "reply",
        contextTokens: 8192,
        replyTokens: 200,
        countTokens: engine.tokenCounter(),
      });
      prompt.push(performance.now() - t2);
      // (3) Storing one message on its own (what SillyTavern's figure measures): one INSERT and one UPDATE.
      const t4 = performance.now();
      await appendMessage(h.database.db, { conversationId, role: "user", content: TEXT });
      store.push(performance.now() - t4);
      // (4) Open the chat: the first page of messages.
      const t3 = performance.now();
      await (
        await fetch(`${base}/api/conversations/${conversationId}/messages`, {
          headers: { cookie: user.cookie, "accept-encoding": "gzip" },
        })
      ).arrayBuffer();
      open.push(performance.now() - t3);
    }
    rows.push(
      `| ${label} | ${size.toLocaleString("en")} | ${ms(median(store))} | ${ms(median(accept))} | ${ms(median(acceptRead))} | ${ms(median(prompt))} | ${ms(median(open))} |`,
    );
    storeAt10k[driver] = median(store);
    acceptAt[driver] = { ...acceptAt[driver], [size]: median(accept) };
    await h.database.db.delete(conversations);
  }
  await h.stop();
  return rows;
}

const rows: string[] = [];
if (DURABILITY) {
  for (const window of DURABILITY) {
    process.env.TEST_PGLITE_ON_DISK = window;
    rows.push(
      ...(await run(
        "pglite",
        window === "off" ? "PGlite on disk, fsync off (before)" : `PGlite on disk, window ${window} ms`,
      )),
    );
  }
  delete process.env.TEST_PGLITE_ON_DISK;
  const table = [
    "| database | messages in the chat | store one message | accept a message (request → `started` sent) | … read by the in-process client | build the prompt | open the chat (first page) |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  writeSection(
    "chat-durability",
    `## Chat: the cost of durable embedded writes

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${loadavg()[0]?.toFixed(1)} when it ended, medians of ${REPEATS} messages per size: the chat benchmark above (same columns) on PGlite in a data directory on disk, as \`hearth start\` opens it, before durable writes (fsync off, as PGlite ships) and with them at each durability window (\`HEARTH_DURABILITY_WINDOW_MS\`, decision 019; 1000 is the default, 0 fsyncs every commit). Rerun: \`HEARTH_BENCH_DURABILITY=${DURABILITY.join(",")} HEARTH_BENCH_SIZES=${SIZES.join(",")} HEARTH_BENCH_REPEATS=${REPEATS} npx tsx bench/chat.ts\`.

${table}`,
  );
  console.log(table);
  process.exit(0);
}
for (const driver of DRIVERS) rows.push(...(await run(driver)));
const table = [
  "| database | messages in the chat | store one message | accept a message (request → `started` sent) | … read by the in-process client | build the prompt | open the chat (first page) |",
  "|---|---|---|---|---|---|---|",
  ...rows,
].join("\n");
/** Hearth's accept against SillyTavern's save at each size measured, with the ratio. */
function compare(): string {
  const tavern: Record<number, number> = { 100: 4.5, 1000: 12.4, 10000: 117 };
  const parts: string[] = [];
  for (const size of SIZES) {
    const st = tavern[size];
    if (!st) continue;
    const ours = DRIVERS.map((d) => {
      const v = acceptAt[d]?.[size];
      return v ? `${d} ${ms(v)} (SillyTavern's time ÷ Hearth's: ${(st / v).toFixed(1)})` : null;
    }).filter(Boolean);
    parts.push(`at ${size.toLocaleString("en")} messages SillyTavern ${ms(st)}, Hearth ${ours.join(", ")}`);
  }
  return parts.join("; ");
}

function verdict(): string {
  const met = (d: string, limit: number) => (acceptAt[d]?.[10_000] ?? Number.POSITIVE_INFINITY) <= limit;
  return `${met("postgres", 3) ? "met" : "not met"} on PostgreSQL and ${met("pglite", 5) ? "met" : "not met"} on PGlite`;
}

writeSection(
  "chat",
  `## Chat: cost per message as history grows

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${loadavg()[0]?.toFixed(1)} when it ended, medians of ${REPEATS} messages of ~300 characters per size. "Accept" is the request path up to the \`started\` event (session, checks, store the user turn and the reply row, claim the conversation, publish, enqueue), timed from the client's request to the server writing \`started\`; the next column is when the benchmark's own client, in the same process, reads it (on PGlite the in-process worker's prompt building, all synchronous WebAssembly and tokenizing, runs before that read; a browser is not held up by it); "build the prompt" is the worker's read of recent history (until it fills an 8K context) and prompt assembly with the model's tokenizer; model time is excluded. PGlite runs with the in-process queue and bus, PostgreSQL with Redis. Rerun: \`npx tsx bench/chat.ts\`.

${table}

"Store one message" is the database work alone (append the row, move the conversation's summary), the figure SillyTavern 1.12.6 reports on the same kind of machine (DESIGN.md §6): 7.1 ms at 100 messages, 20.4 ms at 1,000 and 163.9 ms at 10,000, because it rewrites the whole chat file (15.2 MB written per message at 10,000). Hearth writes one row, so at 10,000 messages storing is ${(163.9 / (storeAt10k.pglite ?? 1)).toFixed(0)}x faster on PGlite and ${(163.9 / (storeAt10k.postgres ?? 1)).toFixed(0)}x on PostgreSQL. Prompt building reads the newest messages a page at a time only until they fill the context (8,192 tokens here), so it is bounded by the context, not the chat; the first page is always 30 messages.

Accepting a message against SillyTavern's save (request to request, SillyTavern 1.12.6 as measured by the issue author on this machine type: 4.5 ms at 100 messages, 12.4 ms at 1,000, 117 ms at 10,000): ${compare()}. Targets (issue 15 item 4): ≤ 3 ms median on PostgreSQL and ≤ 5 ms on PGlite at 10,000 messages, ${verdict()} here; the round trips behind the figure are listed under "Accepting a message, step by step" below.`,
);
console.log(table);
process.exit(0);

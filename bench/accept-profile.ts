// Profile of accepting one message (issue 15 item 4): every database round trip between
// POST /api/generate and its `started` event, with its time, on both databases.
// Run: npx tsx bench/accept-profile.ts   (HEARTH_BENCH_DRIVERS=pglite,postgres; HEARTH_BENCH_SIZE=10000)
import pg from "pg";
import { ThreadedPglite } from "../apps/server/src/db/threaded-pglite.ts";
import { BUNDLED_MODEL_PATH } from "../apps/server/src/features/inference/registry.ts";
import { insertTestCharacter, readSse } from "../apps/server/test/chat.ts";
import type { Driver } from "../apps/server/test/databases.ts";
import { startTestHearth } from "../apps/server/test/harness.ts";
import { median } from "./report.ts";
import { seed, TEXT } from "./seed.ts";

const SIZE = Number(process.env.HEARTH_BENCH_SIZE ?? 10_000);
const DRIVERS = (process.env.HEARTH_BENCH_DRIVERS ?? "pglite,postgres").split(",") as Driver[];
const RUNS = Number(process.env.HEARTH_BENCH_REPEATS ?? 15);

interface Trip {
  sql: string;
  at: number;
  ms: number;
}
let log: Trip[] | null = null;

/** Times every statement either driver sends while `log` is set. */
function record<T>(text: unknown, run: () => Promise<T>): Promise<T> {
  if (!log) return run();
  const into = log;
  const at = performance.now();
  const sql = String(typeof text === "object" && text ? (text as { text?: string }).text : text)
    .replace(/\s+/g, " ")
    .slice(0, 90);
  return run().finally(() => into.push({ sql, at, ms: performance.now() - at }));
}
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const done = args.at(-1);
  // The pool passes a callback (and then gets no promise back): time it through the callback.
  if (log && typeof done === "function") {
    const into = log;
    const at = performance.now();
    const text = args[0] as string | { text?: string };
    args[args.length - 1] = (...r: unknown[]) => {
      const sql = (typeof text === "string" ? text : (text.text ?? "")).replace(/\s+/g, " ").slice(0, 90);
      into.push({ sql, at, ms: performance.now() - at });
      return done(...r);
    };
  }
  // biome-ignore lint/suspicious/noExplicitAny: wraps pg's overloaded signature as it is
  if (typeof done === "function") return (pgQuery as any).apply(this, args);
  // biome-ignore lint/suspicious/noExplicitAny: same
  return record(args[0], () => (pgQuery as any).apply(this, args)) as any;
} as typeof pgQuery;
// PGlite runs on its own thread (decision 022): its statements are timed where the main thread
// sends them, request to answer, which is what the accept waits for.
for (const name of ["query", "exec"] as const) {
  const original = ThreadedPglite.prototype[name] as (...args: unknown[]) => Promise<unknown>;
  (ThreadedPglite.prototype as unknown as Record<string, unknown>)[name] = function (
    this: ThreadedPglite,
    ...args: unknown[]
  ) {
    return record(args[0], () => original.apply(this, args));
  };
}

for (const driver of DRIVERS) {
  const h = await startTestHearth({
    driver,
    redis: driver === "postgres",
    env: { LLM_MODEL: process.env.HEARTH_BENCH_MODEL ?? BUNDLED_MODEL_PATH, LLM_THREADS: "1" },
  });
  const base = await h.listen();
  const user = await h.signUp({ name: "Bench" });
  const character = await insertTestCharacter(h.database.db, user.id);
  const created = await fetch(`${base}/api/conversations`, {
    method: "POST",
    headers: { cookie: user.cookie, "content-type": "application/json" },
    body: JSON.stringify({ character_id: character.id }),
  });
  const conversationId = ((await created.json()) as { conversation: { id: string } }).conversation.id;
  await seed(h.database.db, conversationId, SIZE - 1);
  const totals: number[] = [];
  const trips: Trip[][] = [];
  for (let i = 0; i < RUNS; i++) {
    const mine: Trip[] = [];
    log = mine;
    const t0 = performance.now();
    const res = await fetch(`${base}/api/generate`, {
      method: "POST",
      headers: { cookie: user.cookie, "content-type": "application/json" },
      body: JSON.stringify({ conversation_id: conversationId, type: "text", action: "send", content: TEXT }),
    });
    let t1 = 0;
    await readSse(res, (m) => {
      if (m.event.type === "started") {
        t1 = performance.now();
        log = null;
      }
      return false;
    });
    totals.push(t1 - t0);
    trips.push(mine.filter((t) => t.at < t1).map((t) => ({ ...t, at: t.at - t0 })));
  }
  // The run nearest the median, statement by statement.
  const mid = median(totals);
  const pick = totals.indexOf(totals.reduce((a, b) => (Math.abs(b - mid) < Math.abs(a - mid) ? b : a)));
  const shown = trips[pick] ?? [];
  console.log(`\n${driver}, ${SIZE} messages: accept median ${mid.toFixed(1)} ms over ${RUNS} runs`);
  console.log(
    `run shown: ${totals[pick]?.toFixed(1)} ms, ${shown.length} statements, ${shown.reduce((s, t) => s + t.ms, 0).toFixed(1)} ms in the database`,
  );
  for (const t of shown)
    console.log(`${t.at.toFixed(1).padStart(6)} +${t.ms.toFixed(2).padStart(5)}  ${t.sql}`);
  await h.stop();
}
process.exit(0);

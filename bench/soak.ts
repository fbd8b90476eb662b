// A bounded soak (issue 18 item 5): N guests chat without pause for M minutes against a stand-in
// OpenAI-compatible server, on PGlite and on PostgreSQL + Redis (one process each). Per minute:
// replies, errors, first token and per-token delay (p50/p99), and the process's memory (RSS and
// V8 heap, from its /metrics), so growth over time shows.
// On PGlite it also reads the embedded database's own figures (WebAssembly memory, dead rows, WAL
// since the last checkpoint: db/embedded-maintenance.ts). `pglite-unkept` is PGlite with its
// upkeep off (HEARTH_DB_MAINTENANCE_S=0), to compare with `pglite` in one run.
// Run: npx tsx bench/soak.ts   (writes its section of docs/PERFORMANCE.md)
// Env: HEARTH_SOAK_CONFIGS=pglite,pg (also pglite-unkept)  HEARTH_SOAK_TOGETHER=1 (all at once)  HEARTH_SOAK_STREAMS=200  HEARTH_SOAK_MINUTES=10
//      HEARTH_SOAK_TOKENS=100 (per reply, one every 20 ms)  HEARTH_SOAK_PAUSE_S=10 (a guest's
//      pause between a reply's end and its next message; 0: at once)  HEARTH_BENCH_WRITE=0 (print only)

import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from "../apps/server/test/databases.ts";
import {
  type Client,
  firstCharacter,
  type HearthProcess,
  newClient,
  percentile,
  type StreamResult,
  standInEnv,
  startHearth,
  startStandIn,
  stream,
} from "./concurrency-lib.ts";
import { machine, writeSection } from "./report.ts";

const INTERVAL_MS = 20;
const TOKENS = Number(process.env.HEARTH_SOAK_TOKENS ?? 100);
const STREAMS = Number(process.env.HEARTH_SOAK_STREAMS ?? 200);
const MINUTES = Number(process.env.HEARTH_SOAK_MINUTES ?? 10);
const PAUSE_S = Number(process.env.HEARTH_SOAK_PAUSE_S ?? 10);
const CONFIGS = (process.env.HEARTH_SOAK_CONFIGS ?? "pglite,pg").split(",").filter(Boolean);
const ROOT = path.resolve(path.join(import.meta.dirname, ".."));

const standIn = await startStandIn(INTERVAL_MS, TOKENS);

interface Minute {
  minute: number;
  replies: number;
  errors: number;
  first: number[];
  held: number[];
  rssMb: number;
  heapMb: number;
  embedded?: Embedded;
}
/** PGlite's own figures at a minute's end. */
interface Embedded {
  /** V8's heap as reserved (not only used), and memory outside it held by JS objects (Buffers). */
  heapTotalMb: number;
  externalMb: number;
  wasmMb: number;
  deadRows: number;
  walMb: number;
  tablesMb: number;
}
const sections: string[] = [];
const loadAtStart = loadavg()[0] ?? 0;

/** HEARTH_SOAK_TOGETHER=1 runs the configurations at once, so that the machine's load falls on each alike. */
const TOGETHER = process.env.HEARTH_SOAK_TOGETHER === "1";
if (TOGETHER) sections.push(...(await Promise.all(CONFIGS.map(soakOne))));
else for (const config of CONFIGS) sections.push(await soakOne(config));

async function soakOne(config: string): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-soak-data-"));
  let pgDb: TestDatabase | null = null;
  const env: Record<string, string> = { ...standInEnv(standIn.url), HEARTH_DATA_DIR: dataDir };
  if (config === "pglite-unkept") env.HEARTH_DB_MAINTENANCE_S = "0";
  if (config === "pg") {
    pgDb = await createTestDatabase("postgres");
    Object.assign(env, {
      DATABASE_URL: pgDb.url as string,
      REDIS_URL: TEST_REDIS_URL,
      HEARTH_REDIS_PREFIX: `hearth-soak-${randomBytes(4).toString("hex")}`,
    });
  }
  const hearth = await startHearth(ROOT, env);
  const characterId = await firstCharacter(hearth);
  const guests: Client[] = [];
  while (guests.length < STREAMS) {
    const batch = Math.min(50, STREAMS - guests.length);
    guests.push(
      ...(await Promise.all(Array.from({ length: batch }, () => newClient(hearth.base, characterId)))),
    );
  }

  const began = performance.now();
  const end = began + MINUTES * 60_000;
  const minutes: Minute[] = [];
  const minuteOf = (at: number) => {
    const index = Math.min(MINUTES - 1, Math.floor((at - began) / 60_000));
    minutes[index] ??= { minute: index + 1, replies: 0, errors: 0, first: [], held: [], rssMb: 0, heapMb: 0 };
    return minutes[index] as Minute;
  };
  const memory = { start: await memoryOf(hearth), end: { rssMb: 0, heapMb: 0 } };
  // Memory at the end of each minute.
  const sampler = setInterval(async () => {
    const m = minuteOf(performance.now() - 1);
    Object.assign(m, await memoryOf(hearth).catch(() => ({ rssMb: Number.NaN, heapMb: Number.NaN })));
    if (config !== "pg") m.embedded = await embeddedOf(hearth).catch(() => undefined);
  }, 60_000);
  const signal = AbortSignal.timeout(MINUTES * 60_000 + 120_000);
  setMaxListeners(0, signal);
  const errors = new Map<string, number>();
  await Promise.all(
    guests.map(async (guest) => {
      // Arrivals spread over one reply's length and pause, then each guest keeps its rhythm.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * (TOKENS * INTERVAL_MS + PAUSE_S * 1000)),
      );
      while (performance.now() < end) {
        const sentAt = performance.now();
        const result: StreamResult = await stream(guest, signal);
        const m = minuteOf(sentAt);
        if (result.ok) {
          m.replies += 1;
          m.first.push(result.firstTokenMs - INTERVAL_MS);
          m.held.push(...result.held);
        } else {
          m.errors += 1;
          errors.set(result.error ?? "?", (errors.get(result.error ?? "?") ?? 0) + 1);
        }
        // A person reads the reply and writes the next message (an error: a second before retrying).
        await new Promise((resolve) => setTimeout(resolve, result.ok ? PAUSE_S * 1000 : 1000));
      }
    }),
  );
  clearInterval(sampler);
  memory.end = await memoryOf(hearth);
  const cpu = hearth.cpu() / ((performance.now() - began) / 1000);
  await hearth.stop();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });

  const label =
    config === "pg"
      ? "PostgreSQL + Redis, 1 process"
      : config === "pglite-unkept"
        ? "PGlite without its upkeep (HEARTH_DB_MAINTENANCE_S=0), 1 process"
        : "PGlite, 1 process";
  const embeddedCells = (e: Embedded | undefined) =>
    e
      ? ` ${e.heapTotalMb.toFixed(0)} / ${e.externalMb.toFixed(0)} | ${e.wasmMb.toFixed(0)} | ${e.deadRows} | ${e.walMb.toFixed(0)} | ${e.tablesMb.toFixed(0)} |`
      : " – | – | – | – | – |";
  const withEmbedded = config !== "pg";
  const rows = minutes.map(
    (m) =>
      `| ${m.minute} | ${m.replies} | ${m.errors} | ${ms(percentile(m.first, 0.5))} / ${ms(percentile(m.first, 0.99))} | ${ms(percentile(m.held, 0.5))} / ${ms(percentile(m.held, 0.99))} | ${m.rssMb.toFixed(0)} / ${m.heapMb.toFixed(0)} |${withEmbedded ? embeddedCells(m.embedded) : ""}`,
  );
  const total = minutes.reduce((s, m) => s + m.replies, 0);
  const failed = minutes.reduce((s, m) => s + m.errors, 0);
  const section = `### ${label}, ${STREAMS} chats, ${MINUTES} min

Load average ${loadAtStart.toFixed(1)} when the run began, ${(loadavg()[0] ?? 0).toFixed(1)} when this database's part ended. ${total} replies, ${failed} errors${errors.size ? ` (${[...errors].map(([e, n]) => `${e}: ${n}`).join(", ")})` : ""}; Hearth's CPU ${Math.round(cpu * 100)}% of a core on average; memory (RSS / V8 heap used) ${memory.start.rssMb.toFixed(0)} / ${memory.start.heapMb.toFixed(0)} MB after the guests signed in, ${memory.end.rssMb.toFixed(0)} / ${memory.end.heapMb.toFixed(0)} MB at the end.

| minute | replies | errors | first token, added (p50 / p99) | per token, added (p50 / p99) | RSS / heap at the minute's end (MB) |${withEmbedded ? " V8 heap total / external (MB) | WASM memory (MB) | dead rows | WAL since checkpoint (MB) | tables (MB) |" : ""}
|---|---|---|---|---|---|${withEmbedded ? "---|---|---|---|---|" : ""}
${rows.join("\n")}
`;
  console.log(section);
  return section;
}
standIn.stop();

if (process.env.HEARTH_BENCH_WRITE !== "0") {
  writeSection(
    "soak",
    `## Soak

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. One \`hearth start\` process per database, ${STREAMS} guests each in their own chat sending a message ${PAUSE_S > 0 ? `${PAUSE_S} s after` : "the moment"} their previous reply ends (about ${Math.round(STREAMS / ((TOKENS * INTERVAL_MS) / 1000 + PAUSE_S))} messages a second when Hearth keeps pace), for ${MINUTES} minutes, against the stand-in OpenAI-compatible server (\`bench/steady-openai-server.ts\`, ${TOKENS} tokens per reply, one every ${INTERVAL_MS} ms). "Added" times are as in "Concurrent streams" (Hearth's share, the stand-in's own pace taken out). Memory is read from the process's \`/metrics\` (\`process_resident_memory_bytes\`, \`nodejs_heap_size_used_bytes\`). Rerun: \`npx tsx bench/soak.ts\`.

${sections.join("\n")}`,
  );
}
process.exit(0);

async function memoryOf(p: HearthProcess): Promise<{ rssMb: number; heapMb: number }> {
  const text = await (await fetch(`${p.base}/metrics`)).text();
  const value = (name: string) =>
    Number(text.match(new RegExp(`^${name} ([\\d.e+]+)`, "m"))?.[1] ?? Number.NaN);
  return {
    rssMb: value("hearth_process_resident_memory_bytes") / 2 ** 20,
    heapMb: value("hearth_nodejs_heap_size_used_bytes") / 2 ** 20,
  };
}

async function embeddedOf(p: HearthProcess): Promise<Embedded> {
  const text = await (await fetch(`${p.base}/metrics`)).text();
  const value = (name: string) =>
    Number(text.match(new RegExp(`^hearth_embedded_${name} ([\\d.e+]+)`, "m"))?.[1] ?? Number.NaN);
  const node = (name: string) =>
    Number(text.match(new RegExp(`^hearth_nodejs_${name} ([\\d.e+]+)`, "m"))?.[1] ?? Number.NaN);
  return {
    heapTotalMb: node("heap_size_total_bytes") / 2 ** 20,
    externalMb: node("external_memory_bytes") / 2 ** 20,
    wasmMb: value("wasm_memory_bytes") / 2 ** 20,
    deadRows: value("dead_rows"),
    walMb: value("wal_since_checkpoint_bytes") / 2 ** 20,
    tablesMb: value("table_bytes") / 2 ** 20,
  };
}

function ms(v: number): string {
  return Number.isNaN(v) ? "–" : `${v.toFixed(1)} ms`;
}

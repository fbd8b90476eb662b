// The cost of durable embedded writes on one commit (decision 019): one 300-character INSERT,
// repeated, with PGlite as it ships (fsync off), with the default window (1000 ms) and with a
// window of 0, the three interleaved in rounds in one process so that the machine's load falls on
// all of them alike. Also counts the fsyncs each mode made, through the module's probe.
// Run: npx tsx bench/durable-commit.ts   Env: HEARTH_BENCH_COMMITS=400 (per mode), HEARTH_BENCH_ROUND=100
// Prints a Markdown table (docs/PERFORMANCE.md, "Chat: the cost of durable embedded writes").

import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openDurablePglite } from "../apps/server/src/db/durable-pglite.ts";

const COMMITS = Number(process.env.HEARTH_BENCH_COMMITS ?? 400);
const ROUND = Number(process.env.HEARTH_BENCH_ROUND ?? 100);
const work = mkdtempSync(path.join(tmpdir(), "hearth-commit-bench-"));
const body = "x".repeat(300);

interface Mode {
  name: string;
  client: PGlite;
  close(): Promise<void>;
  times: number[];
  fsyncs: { count: number };
}

async function open(name: string, windowMs: number | null): Promise<Mode> {
  const dir = path.join(work, name);
  const fsyncs = { count: 0 };
  if (windowMs === null) {
    const client = await PGlite.create(dir);
    return { name, client, close: () => client.close(), times: [], fsyncs };
  }
  const durable = await openDurablePglite(
    dir,
    {},
    {
      windowMs,
      probe: {
        beforeSync: () => () => {
          fsyncs.count++;
        },
      },
    },
  );
  return { name, client: durable.client, close: () => durable.close(), times: [], fsyncs };
}

const modes = [
  await open("fsync off (as PGlite ships)", null),
  await open("window 1000 ms (default)", 1000),
  await open("window 0", 0),
];
for (const mode of modes) await mode.client.exec("CREATE TABLE t (id serial PRIMARY KEY, body text)");
for (const mode of modes) mode.fsyncs.count = 0;

for (let done = 0; done < COMMITS; done += ROUND) {
  for (const mode of modes) {
    for (let i = 0; i < ROUND; i++) {
      const start = performance.now();
      await mode.client.query("INSERT INTO t (body) VALUES ($1)", [body]);
      mode.times.push(performance.now() - start);
    }
  }
}
// The default window's last commits are flushed by its timer: let it fire before counting.
await new Promise((resolve) => setTimeout(resolve, 1200));

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};
console.log(
  `${COMMITS} commits per mode, interleaved in rounds of ${ROUND}; load average ${loadavg()[0]?.toFixed(1)} at the end.\n`,
);
console.log("| mode | commit median | p95 | p99 | fsyncs |");
console.log("|---|---|---|---|---|");
for (const mode of modes) {
  console.log(
    `| ${mode.name} | ${pct(mode.times, 0.5).toFixed(2)} ms | ${pct(mode.times, 0.95).toFixed(2)} ms | ${pct(mode.times, 0.99).toFixed(2)} ms | ${mode.fsyncs.count} |`,
  );
}
for (const mode of modes) await mode.close();
rmSync(work, { recursive: true, force: true });

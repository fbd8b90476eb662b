// CPU profile of accepting messages (issue 15 item 4): one `hearth start` process on PostgreSQL +
// Redis (or PGlite) in front of the stand-in model, HEARTH_BENCH_SENDS sends, one
// at a time by as many guests, under node --cpu-prof; prints where the process spent its CPU
// (self time by function and by package), the accept's median and its CPU per request.
// Run: npx tsx bench/accept-cpu.ts   (HEARTH_BENCH_DRIVER=postgres|pglite)
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import type http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import { createTestDatabase, TEST_REDIS_URL } from "../apps/server/test/databases.ts";
import { openConnection, sendOnOpen } from "./accept-send.ts";
import { type Client, newClient, standInEnv, startHearth } from "./concurrency-lib.ts";
import { type CallFrame, frameLabel, isHearthFrame, packageOf, topShares } from "./cpu-profile.ts";
import { median } from "./report.ts";
import { startSteadyServer } from "./steady-openai-server.ts";

const DRIVER = process.env.HEARTH_BENCH_DRIVER ?? "postgres";
// HEARTH_BENCH_TO_END=1 (with HEARTH_BENCH_ROLE=all): each reply is read to its end before the
// next send, so the next request goes on the same connection, as a browser's does; by default the
// stream is dropped at `started` and every send opens a new connection.
const TO_END = process.env.HEARTH_BENCH_TO_END === "1";
const SENDS = Number(process.env.HEARTH_BENCH_SENDS ?? 400);
// HEARTH_BENCH_ROOT: another checkout whose server to measure (before/after comparisons).
const root = path.resolve(process.env.HEARTH_BENCH_ROOT ?? path.join(import.meta.dirname, ".."));
const profDir = mkdtempSync(path.join(tmpdir(), "hearth-prof-"));
const steady = await startSteadyServer({ intervalMs: 1, tokens: 2 });
const env: Record<string, string> = {
  ...standInEnv(steady.url),
  HEARTH_DATA_DIR: mkdtempSync(path.join(tmpdir(), "hearth-prof-data-")),
};
if (DRIVER === "postgres") {
  const db = await createTestDatabase("postgres");
  Object.assign(env, {
    // An api process only accepts: the replies wait in line, so the CPU measured is the accept's.
    HEARTH_ROLE: process.env.HEARTH_BENCH_ROLE ?? "api",
    DATABASE_URL: db.url as string,
    REDIS_URL: TEST_REDIS_URL,
    HEARTH_REDIS_PREFIX: `hearth-prof-${randomBytes(3).toString("hex")}`,
  });
}
// HEARTH_BENCH_PROFILE=0: no profiler, for the figures alone (sampling costs some CPU itself).
const profiling = process.env.HEARTH_BENCH_PROFILE !== "0";
// HEARTH_BENCH_NODE_ARGS: more node options for the server (a preload that traces, say).
const extraArgs = (process.env.HEARTH_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
// HEARTH_BENCH_COUNTS=1: the server counts its statements, Redis commands and socket writes in
// the measured phase (bench/count-calls.cjs); printed per send.
const COUNTING = process.env.HEARTH_BENCH_COUNTS === "1";
const countsFile = path.join(profDir, "counts.json");
if (COUNTING) {
  extraArgs.push("--require", path.join(import.meta.dirname, "count-calls.cjs"));
  env.HEARTH_BENCH_COUNTS_FILE = countsFile;
}
const hearth = await startHearth(root, env, [
  ...(profiling ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : []),
  ...extraArgs,
]);
const list = (await (await fetch(`${hearth.base}/api/characters`)).json()) as {
  characters?: { id: string }[];
  items?: { id: string }[];
};
const characterId = (list.characters ?? list.items ?? [])[0]?.id as string;
// One guest per send: with no worker every reply stays in line, and its chat stays busy.
const WARMUP = 50;
const clients: Client[] = [];
while (clients.length < SENDS + WARMUP) {
  const batch = Math.min(25, SENDS + WARMUP - clients.length);
  clients.push(
    ...(await Promise.all(Array.from({ length: batch }, () => newClient(hearth.base, characterId)))),
  );
}

// HEARTH_BENCH_CONNECTION=open: each send goes on a connection opened (and used once, for
// `GET /api/me`) before its timer starts, as a browser that has the chat open has one; the
// request and its reading are node's http, not fetch. By default each send opens its own (fetch).
const OPEN_CONNECTION = process.env.HEARTH_BENCH_CONNECTION === "open";

/** One send, read until `started` (then the stream is dropped); ms from the request to it. */
async function send(client: Client, open?: http.Agent): Promise<number> {
  if (OPEN_CONNECTION) return sendOnOpen(client, open ?? (await openConnection(client)), TO_END);
  const stop = new AbortController();
  const t0 = performance.now();
  const res = await fetch(`${client.base}/api/generate`, {
    method: "POST",
    headers: { cookie: client.cookie, "content-type": "application/json", origin: client.base },
    body: JSON.stringify({ conversation_id: client.conversationId, action: "send", content: "Go on" }),
    signal: stop.signal,
  });
  if (!res.body) throw new Error(`status ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = "";
  let startedAt = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      if (startedAt === 0 && buffer.includes('"type":"started"')) {
        startedAt = performance.now() - t0;
        if (!TO_END) return startedAt;
      }
      if (TO_END && buffer.includes('"type":"done"')) return startedAt;
      if (buffer.includes('"type":"error"') || buffer.includes('"code"'))
        throw new Error(buffer.slice(0, 300));
    }
    throw new Error(`no started: ${res.status} ${buffer.slice(0, 300)}`);
  } finally {
    stop.abort();
  }
}

// Warm-up (JIT, pools), then the measured sends one at a time, timed for the profile window.
for (const client of clients.slice(0, WARMUP)) await send(client);
// HEARTH_BENCH_PHASE_SIGNAL=1: SIGUSR2 to the server as the measured phase starts and ends (a
// preload in HEARTH_BENCH_NODE_ARGS that counts statements and writes can cut its counts there).
const markPhase = () => {
  if (COUNTING || process.env.HEARTH_BENCH_PHASE_SIGNAL === "1") hearth.child.kill("SIGUSR2");
};
const times: number[] = [];
// Opened before the phase, so its CPU and counts are the sends' alone.
const measured = clients.slice(WARMUP);
const opened = OPEN_CONNECTION ? await Promise.all(measured.map(openConnection)) : [];
markPhase();
const cpuBefore = hearth.cpu();
const phaseStart = performance.now();
for (const [i, client] of measured.entries()) times.push(await send(client, opened[i]));
const phaseMs = performance.now() - phaseStart;
markPhase();
const cpuMs = ((hearth.cpu() - cpuBefore) * 1000) / SENDS;
console.log(
  `${DRIVER}: ${SENDS} sends one at a time: request → started median ${median(times).toFixed(2)} ms; Hearth CPU ${cpuMs.toFixed(2)} ms per accept`,
);
if (COUNTING) {
  // Written by the server as it takes the phase's second signal.
  for (let waited = 0; !existsSync(countsFile) && waited < 5000; waited += 50) await setTimeout(50);
  const counts = JSON.parse(readFileSync(countsFile, "utf8")) as {
    statements: Record<string, number>;
    statementTotal: number;
    redis: Record<string, number>;
    redisTotal: number;
    socketWrites: number;
    writesTo: Record<string, number>;
  };
  const per = (n: number) => (n / SENDS).toFixed(2);
  console.log(
    `per send: ${per(counts.statementTotal)} PostgreSQL statements, ${per(counts.redisTotal)} Redis commands, ${per(counts.socketWrites)} socket writes`,
  );
  for (const [shape, n] of Object.entries(counts.statements).sort((a, b) => b[1] - a[1]))
    console.log(`  ${per(n).padStart(6)}  ${shape}`);
  for (const [name, n] of Object.entries(counts.redis).sort((a, b) => b[1] - a[1]))
    console.log(`  ${per(n).padStart(6)}  redis ${name}`);
  for (const [peer, n] of Object.entries(counts.writesTo).sort((a, b) => b[1] - a[1]))
    console.log(`  ${per(n).padStart(6)}  socket writes to ${peer}`);
}
const stopStart = performance.now();
await hearth.stop();
const stopMs = performance.now() - stopStart;

interface Node {
  id: number;
  callFrame: CallFrame;
  hitCount: number;
  children?: number[];
}
for (const file of readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile"))) {
  const profile = JSON.parse(readFileSync(path.join(profDir, file), "utf8")) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
    endTime: number;
  };
  // Samples of the measured phase only: it ended about stopMs before the profile did.
  const hits = new Map<number, number>();
  const to = profile.endTime - stopMs * 1000;
  const from = to - phaseMs * 1000;
  let at = profile.endTime - profile.timeDeltas.reduce((a, b) => a + b, 0);
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] as number;
    if (at < from || at > to) return;
    hits.set(id, (hits.get(id) ?? 0) + 1);
    total++;
  });
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const node of profile.nodes) {
    node.hitCount = hits.get(node.id) ?? 0;
    const fn = frameLabel(node.callFrame, root);
    byFn.set(fn, (byFn.get(fn) ?? 0) + node.hitCount);
    const pkg = packageOf(node.callFrame, root);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + node.hitCount);
  }
  // Inclusive time of Hearth's own functions (a function's samples and its callees').
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  const walk = (node: Node, open: Set<string>): number => {
    let sum = node.hitCount;
    const key = frameLabel(node.callFrame, root);
    const own = isHearthFrame(node.callFrame) && !open.has(key);
    const inner = own ? new Set(open).add(key) : open;
    for (const child of node.children ?? []) sum += walk(byId.get(child) as Node, inner);
    if (own) inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
    return sum;
  };
  walk(profile.nodes[0] as Node, new Set());
  console.log(`\n-- Hearth functions, inclusive --\n${topShares(inclusive, total, 45)}`);
  console.log(
    `\n${file}: ${total} samples in the measured phase (${(phaseMs / 1000).toFixed(1)} s)\n-- by package/file --\n${topShares(byPkg, total, 30)}\n-- by function --\n${topShares(byFn, total, 40)}`,
  );
}
process.exit(0);

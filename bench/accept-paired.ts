// Accepting a message on two checkouts at once, their sends alternated one at a time (issue 15
// item 4): a before/after comparison that the machine's swings reach equally. On these shared
// cores the same code's median moved between 3.7 and 6.2 ms from one run to the next, more than
// most changes are worth; alternated within one run, both sides see the same minutes.
//
// Run: HEARTH_BENCH_BEFORE=<other checkout> npx tsx bench/accept-paired.ts
//   HEARTH_BENCH_BEFORE=floor: the other side is bench/accept-floor.ts, the same round trips with
//   none of Hearth (PostgreSQL only), so after ÷ before is Hearth against the floor;
//   HEARTH_BENCH_DRIVER=postgres (default; an `api` process on PostgreSQL + Redis, as
//   bench/accept-cpu.ts) or pglite (an `all` process, each reply read to its end);
//   HEARTH_BENCH_SENDS per side (default 400); HEARTH_BENCH_ROUNDS (default 1).
// Prints each side's median (request → `started`, on a connection opened before the timer) and
// CPU per accept, and after ÷ before.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, TEST_REDIS_URL } from "../apps/server/test/databases.ts";
import { openConnection, sendOnOpen } from "./accept-send.ts";
import { type Client, type HearthProcess, newClient, standInEnv, startHearth } from "./concurrency-lib.ts";
import { median } from "./report.ts";
import { startSteadyServer } from "./steady-openai-server.ts";

const before = process.env.HEARTH_BENCH_BEFORE;
if (!before) throw new Error("Set HEARTH_BENCH_BEFORE to the checkout to compare with.");
const DRIVER = process.env.HEARTH_BENCH_DRIVER ?? "postgres";
const SENDS = Number(process.env.HEARTH_BENCH_SENDS ?? 400);
const ROUNDS = Number(process.env.HEARTH_BENCH_ROUNDS ?? 1);
const WARMUP = 50;
// On PGlite the process also writes the reply, read to its end before the next send.
const toEnd = DRIVER === "pglite";

const steady = await startSteadyServer({ intervalMs: 1, tokens: 2 });

interface Side {
  name: string;
  hearth: HearthProcess;
  clients: Client[];
}

async function startSide(name: string, root: string, floor = false): Promise<Side> {
  const env: Record<string, string> = {
    ...standInEnv(steady.url),
    HEARTH_DATA_DIR: mkdtempSync(path.join(tmpdir(), "hearth-paired-data-")),
    HEARTH_ROLE: DRIVER === "postgres" ? "api" : "all",
  };
  if (DRIVER === "postgres") {
    const db = await createTestDatabase("postgres");
    Object.assign(env, {
      DATABASE_URL: db.url as string,
      REDIS_URL: TEST_REDIS_URL,
      HEARTH_REDIS_PREFIX: `hearth-paired-${randomBytes(3).toString("hex")}`,
    });
  }
  const hearth = await startHearth(
    root,
    env,
    [],
    floor ? ["--import", "tsx", path.join(import.meta.dirname, "accept-floor.ts")] : undefined,
  );
  const list = (await (await fetch(`${hearth.base}/api/characters`)).json()) as {
    characters?: { id: string }[];
    items?: { id: string }[];
  };
  const characterId = (list.characters ?? list.items ?? [])[0]?.id as string;
  const clients: Client[] = [];
  while (clients.length < (SENDS + WARMUP) * ROUNDS) {
    const batch = Math.min(25, (SENDS + WARMUP) * ROUNDS - clients.length);
    clients.push(
      ...(await Promise.all(Array.from({ length: batch }, () => newClient(hearth.base, characterId)))),
    );
  }
  return { name, hearth, clients };
}

const floor = before === "floor";
if (floor && DRIVER !== "postgres") throw new Error("The accept's floor is for PostgreSQL + Redis.");
const here = path.resolve(import.meta.dirname, "..");
const sides = [
  floor ? await startSide("floor", here, true) : await startSide("before", path.resolve(before)),
  await startSide(floor ? "Hearth" : "after", here),
];
console.log(`${DRIVER}: ${SENDS} sends per side and round, alternated one at a time (${ROUNDS} rounds)`);
for (let round = 0; round < ROUNDS; round++) {
  const times = sides.map(() => [] as number[]);
  const take = (side: Side) => side.clients.splice(0, SENDS + WARMUP);
  const clients = sides.map(take);
  // Warm-up on both, then connections opened before the timers (as in bench/accept-cpu.ts).
  for (let i = 0; i < WARMUP; i++)
    for (const list of clients) {
      const client = list[i] as Client;
      await sendOnOpen(client, await openConnection(client), toEnd);
    }
  const open = await Promise.all(clients.map((list) => Promise.all(list.slice(WARMUP).map(openConnection))));
  // Each process does only its own side's work: its CPU over the phase is its sends'.
  const cpuBefore = sides.map((side) => side.hearth.cpu());
  for (let i = 0; i < SENDS; i++) {
    // Each side goes first every other time, so neither always follows the other's send.
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const s of order) {
      const client = clients[s]?.[WARMUP + i] as Client;
      times[s]?.push(await sendOnOpen(client, open[s]?.[i] as http.Agent, toEnd));
    }
  }
  const cpu = sides.map((side, s) => side.hearth.cpu() - (cpuBefore[s] ?? 0));
  const medians = times.map((t) => median(t));
  const line = sides
    .map((side, s) => {
      const cpuMs = ((cpu[s] ?? 0) * 1000) / SENDS;
      return `${side.name} ${medians[s]?.toFixed(2)} ms (CPU ${cpuMs.toFixed(2)} ms)`;
    })
    .join(", ");
  console.log(
    `round ${round + 1}: ${line}; after ÷ before ${((medians[1] ?? 0) / (medians[0] ?? 1)).toFixed(2)}`,
  );
}
for (const side of sides) await side.hearth.stop();
steady.server.close();
process.exit(0);

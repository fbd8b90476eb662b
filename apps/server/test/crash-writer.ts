/**
 * The write-heavy process of the crash-consistency test (src/db/durable-pglite.test.ts), run as a
 * child and killed with SIGKILL by the test. While it writes it takes "power cut" images of its
 * data directory (test/power-cut.ts) at chosen times, at the next fsync or WAL-before-data point
 * of the durable PGlite when there is one, and logs each acknowledged commit and each image.
 *
 * Argument: a JSON CrashWriterArgs. Log lines (JSON): {chat, n, t} for a commit acknowledged at
 * t, meaning chat's counter reached n; {cut, t} for an image taken at t; {walSync, t} and
 * {walSynced} around each fsync of a WAL segment. Times leave out the time
 * spent writing images (the process is frozen then; nothing is written meanwhile) and the time
 * the process was stalled (see below).
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type DurabilityProbe, openDurablePglite } from "../src/db/durable-pglite.ts";
import { type CrashWriterArgs, PowerCutDisk, random } from "./power-cut.ts";

const TICK_MS = 5;
const WAL_SEGMENT = /pg_wal[/\\][0-9A-F]{24}$/;
/** Later than this, a tick counts the whole delay as a stall. */
const STALL_MS = 50;

async function main(args: CrashWriterArgs) {
  const rand = random(args.seed);
  const disk = new PowerCutDisk(args.dir);
  const logFd = fs.openSync(args.log, "a");
  const log = (entry: object) => fs.writeSync(logFd, `${JSON.stringify(entry)}\n`);
  let paused = 0;
  let stalled = 0;
  let last = 0;
  // Monotonic: a stall is seen only once it is over, and the log must never go back in time.
  const now = () => {
    last = Math.max(last, Date.now() - paused - stalled);
    return last;
  };
  let started: number | null = null;
  let nextCut = 0;
  let walSyncs = 0;
  /** HEARTH_CRASH_TRACE=1 logs every fsync and point too. */
  const trace = process.env.HEARTH_CRASH_TRACE === "1";

  function maybeCut(): void {
    if (started === null || nextCut >= args.cutAtMs.length) return;
    // Images are due on the clock (less the time spent writing them); the log uses its own.
    if (Date.now() - paused - started < (args.cutAtMs[nextCut] as number)) return;
    const t = now();
    const wall = Date.now();
    disk.materialize(path.join(args.cutsDir, String(nextCut)), rand, args.mixRate);
    paused += Date.now() - wall;
    log({ cut: nextCut, t });
    nextCut++;
    if (nextCut === args.cutAtMs.length) process.stdout.write("cut all\n");
  }

  const probe: DurabilityProbe = {
    beforeSync(file) {
      maybeCut();
      if (trace) log({ sync: path.relative(args.dir, file), t: now() });
      // A WAL segment's fsync, while it lasts, holds back what the window can promise.
      const wal = WAL_SEGMENT.test(file) ? ++walSyncs : null;
      if (wal) log({ walSync: wal, t: now() });
      const done = disk.beforeSync(file);
      return () => {
        done();
        if (wal) log({ walSynced: wal });
        if (trace) log({ synced: path.relative(args.dir, file), t: now() });
        maybeCut();
      };
    },
    point(what) {
      if (trace) log({ point: what, t: now() });
      maybeCut();
    },
  };
  const pg =
    args.windowMs === null
      ? await PGlite.create(args.dir)
      : (await openDurablePglite(args.dir, {}, { windowMs: args.windowMs, probe })).client;

  // Images are due at set times; between fsyncs, a timer takes them.
  // The window is a promise about a running process: a process the machine does not schedule
  // (CI runs other tests beside this one) flushes when it runs again. So the log's clock leaves
  // out the time this process was stalled, seen as a late tick of this timer.
  let lastTick = Date.now();
  let pausedAtTick = paused;
  setInterval(() => {
    const late = Date.now() - lastTick - TICK_MS - (paused - pausedAtTick);
    if (late > STALL_MS) {
      stalled += late;
      if (trace) log({ stall: late, t: now() });
    }
    maybeCut();
    lastTick = Date.now();
    pausedAtTick = paused;
  }, TICK_MS);
  setTimeout(() => process.exit(3), 60_000).unref();
  started = Date.now() - paused;
  process.stdout.write("writing\n");
  for (;;) {
    const chat = 1 + Math.floor(rand() * 12);
    const k = 1 + Math.floor(rand() * 6);
    const n = await pg.transaction(async (tx) => {
      const counted = await tx.query<{ n: number }>(
        "INSERT INTO counters AS c VALUES ($1, $2) ON CONFLICT (chat) DO UPDATE SET n = c.n + $2 RETURNING n",
        [chat, k],
      );
      const reached = (counted.rows[0] as { n: number }).n;
      await tx.query(
        "INSERT INTO msgs SELECT $1, s, body_of($1, s) FROM generate_series($2::int, $3::int) s",
        [chat, reached - k + 1, reached],
      );
      return reached;
    });
    log({ chat, n, t: now() });
    const roll = rand();
    const opStart = now();
    if (roll < 0.03) {
      await pg.query("UPDATE msgs SET body = body_of(chat, seq) WHERE chat = $1 AND seq % 5 = 0", [chat]);
    } else if (roll < 0.045) {
      await pg.query("VACUUM msgs");
    } else if (roll < 0.06) {
      await pg.query("CHECKPOINT");
    } else if (roll < 0.12) {
      await new Promise((resolve) => setTimeout(resolve, rand() * 30));
    }
    if (trace && roll < 0.12) log({ op: roll, ms: now() - opStart, t: now() });
  }
}

await main(JSON.parse(process.argv[2] as string) as CrashWriterArgs);

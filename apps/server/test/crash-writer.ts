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
 * the machine did not run the process (see account()).
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type DurabilityProbe, openDurablePglite } from "../src/db/durable-pglite.ts";
import { type CrashWriterArgs, PowerCutDisk, random } from "./power-cut.ts";

const TICK_MS = 5;
const WAL_SEGMENT = /pg_wal[/\\][0-9A-F]{24}$/;
/** A gap this long between two looks at the clock is looked into (see account()). */
const STALL_MS = 50;

async function main(args: CrashWriterArgs) {
  const rand = random(args.seed);
  const disk = new PowerCutDisk(args.dir);
  const logFd = fs.openSync(args.log, "a");
  const log = (entry: object) => fs.writeSync(logFd, `${JSON.stringify(entry)}\n`);
  let paused = 0;
  let stalled = 0;
  let last = 0;
  let lookedAt = Date.now();
  let pausedAtLook = 0;
  let cpuAtLook = mainThreadCpuMs();
  /**
   * The window is a promise about a running process: one the machine does not schedule (CI runs
   * other tests beside this one) flushes when it runs again. A gap of more than STALL_MS since
   * the clock was last looked at (a 5 ms timer looks too) means the event loop did not turn: the
   * main thread was not scheduled, or it was busy (one long synchronous call, a garbage
   * collection). Only the first leaves out time: the gap less the CPU time the main thread used
   * meanwhile (Linux counts it per thread, in 10 ms ticks); busy time counts, since durable-pglite
   * must flush inside a long call. It is accounted at every look, so a cut taken at the end of a
   * gap already leaves it out (counting it at the next tick, as before, was too late).
   */
  const account = () => {
    const wall = Date.now();
    const gap = wall - lookedAt - (paused - pausedAtLook);
    if (gap > STALL_MS) {
      const cpu = mainThreadCpuMs();
      stalled += Math.max(0, gap - TICK_MS - (cpu - cpuAtLook));
      cpuAtLook = cpu;
    }
    lookedAt = wall;
    pausedAtLook = paused;
  };
  // Monotonic: the log must never go back in time.
  const now = () => {
    account();
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
    // Images are due on the log's clock: after so much time running, however loaded the machine.
    if (now() - started < (args.cutAtMs[nextCut] as number)) return;
    const t = now();
    const wall = Date.now();
    disk.materialize(path.join(args.cutsDir, String(nextCut)), rand, args.mixRate);
    paused += Date.now() - wall;
    // How much time the clock has left out so far (the main thread not scheduled), to read.
    log({ cut: nextCut, t, notScheduledMs: Math.round(stalled) });
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

  // Images are due at set times; between fsyncs, a timer takes them, and it looks at the clock.
  setInterval(() => {
    account();
    cpuAtLook = mainThreadCpuMs();
    maybeCut();
  }, TICK_MS);
  setTimeout(() => process.exit(3), 60_000).unref();
  started = now();
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

/** CPU time the main thread has used (utime + stime of its task, in 10 ms ticks), in ms. */
function mainThreadCpuMs(): number {
  const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

await main(JSON.parse(process.argv[2] as string) as CrashWriterArgs);

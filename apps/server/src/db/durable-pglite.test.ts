import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { amcheck } from "@electric-sql/pglite/contrib/amcheck";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRASH_SCHEMA, type CrashWriterArgs, random } from "../../test/power-cut.ts";
import { openDatabase } from "./client.ts";
import { openDurablePglite } from "./durable-pglite.ts";

/**
 * Issue 18 / decision 019: the embedded database survives a killed process and a power cut.
 * A child process commits small transactions as fast as it can (a counter per chat and that many
 * messages, some TOASTed, with updates, VACUUMs and CHECKPOINTs among them) and is killed with
 * SIGKILL at a random moment; along the way it writes images of its data directory as a power
 * cut would leave it (test/power-cut.ts: only what was fsynced, plus any blocks the kernel may
 * have written back). Each image and the killed directory must open, pass amcheck (every B-tree
 * with heapallindexed, every table's heap with its TOAST) and hold every commit acknowledged
 * more than the window before the cut (CHECK_WINDOW_MS; after a kill: every acknowledged
 * commit). The window is counted on the writer's clock, which leaves out the time the machine
 * did not run its main thread (but not the time that thread was busy: a long statement or a
 * garbage collection counts), and stops while a WAL fsync it began is still running (a loaded
 * disk can take longer than the window to finish one).
 *
 * Longer runs: HEARTH_CRASH_ROUNDS=20. HEARTH_CRASH_SEED picks the random choices (timing still
 * varies), HEARTH_CRASH_KEEP=dir keeps failing images and logs, HEARTH_CRASH_TRACE=1 logs every
 * fsync of the writer too.
 */
const WINDOW_MS = 400;
/**
 * What the power-cut images are held to: every commit acknowledged the window before. (It was
 * twice the window until the flush stopped depending on the event loop turning, decision 019:
 * one image in ~25 had missed the window by 30-150 ms, each time a cut taken at the end of a
 * long stretch without a turn of the event loop.)
 */
const CHECK_WINDOW_MS = WINDOW_MS;
const ROUNDS = Number(process.env.HEARTH_CRASH_ROUNDS ?? 3);
const CUTS_PER_ROUND = 3;
const SEED = Number(process.env.HEARTH_CRASH_SEED ?? Date.now() % 1_000_000);
const writer = path.resolve(import.meta.dirname, "../../test/crash-writer.ts");

interface Ack {
  chat: number;
  n: number;
  t: number;
}
interface Cut {
  cut: number;
  t: number;
  /** The commits acknowledged before it (the log's lines before its own). */
  before: Ack[];
  /**
   * The start of the oldest WAL fsync still running when it was taken: the window promises a
   * flush begun in time, and the disk takes what it takes to finish it.
   */
  flushingSince: number;
}

function readLog(file: string): { acks: Ack[]; cuts: Cut[] } {
  const acks: Ack[] = [];
  const cuts: Cut[] = [];
  const flushing = new Map<number, number>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    // The last line may be cut short by the kill.
    if (!line.endsWith("}")) continue;
    const entry = JSON.parse(line) as
      | Ack
      | { cut: number; t: number }
      | { walSync: number; t: number }
      | { walSynced: number };
    if ("cut" in entry) {
      const flushingSince = Math.min(Number.POSITIVE_INFINITY, ...flushing.values());
      cuts.push({ ...entry, before: [...acks], flushingSince });
    } else if ("chat" in entry) acks.push(entry);
    else if ("walSync" in entry) flushing.set(entry.walSync, entry.t);
    else if ("walSynced" in entry) flushing.delete(entry.walSynced);
  }
  return { acks, cuts };
}

/** Per chat, the highest counter acknowledged at or before `until`. */
function acknowledged(acks: Ack[], until: number): Map<number, number> {
  const floor = new Map<number, number>();
  for (const ack of acks) if (ack.t <= until) floor.set(ack.chat, Math.max(floor.get(ack.chat) ?? 0, ack.n));
  return floor;
}

/**
 * Opens a data directory as it was left and checks it; answers what is wrong, or null. PGlite
 * as it ships is enough here: the check needs no durability, and it skips the whole-directory
 * fsync PostgreSQL makes before recovery when fsync is on.
 */
async function check(dir: string, mustHold: Map<number, number>): Promise<string | null> {
  let pg: PGlite;
  try {
    pg = await PGlite.create(dir, { extensions: { amcheck } });
  } catch (error) {
    return `does not open: ${(error as Error).message}`;
  }
  try {
    await pg.exec("CREATE EXTENSION IF NOT EXISTS amcheck");
    // Every B-tree, catalogs included, against its table (heapallindexed)...
    await pg.query(`
      SELECT bt_index_check(c.oid, true) FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
      WHERE a.amname = 'btree' AND c.relpersistence <> 't' AND i.indisvalid`);
    // ... and every table's heap, with its TOAST.
    const heap = await pg.query<{ rel: string; msg: string }>(`
      SELECT c.relname AS rel, v.msg FROM pg_class c, verify_heapam(c.oid, check_toast => true) v
      WHERE c.relkind = 'r' AND c.relpersistence <> 't'`);
    if (heap.rows.length > 0) return `verify_heapam: ${JSON.stringify(heap.rows.slice(0, 3))}`;
    // Each transaction is whole: a chat's counter is its number of messages, numbered 1..n, each
    // with its body (which reads every TOASTed value).
    const chats = await pg.query<{ chat: number; n: number; count: number; top: number; bad: number }>(`
      SELECT c.chat, c.n, count(m.seq)::int AS count, coalesce(max(m.seq), 0) AS top,
             count(*) FILTER (WHERE m.body <> body_of(m.chat, m.seq))::int AS bad
      FROM counters c LEFT JOIN msgs m ON m.chat = c.chat GROUP BY c.chat, c.n`);
    const orphans = await pg.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM msgs m WHERE NOT EXISTS (SELECT 1 FROM counters c WHERE c.chat = m.chat)",
    );
    if ((orphans.rows[0]?.count ?? 0) > 0) return "messages without their counter";
    const found = new Map<number, number>();
    for (const row of chats.rows) {
      if (row.count !== row.n || row.top !== row.n || row.bad !== 0)
        return `chat ${row.chat}: ${JSON.stringify(row)}`;
      found.set(row.chat, row.n);
    }
    for (const [chat, n] of mustHold) {
      if ((found.get(chat) ?? 0) < n)
        return `chat ${chat} lost acknowledged writes: has ${found.get(chat) ?? 0}, ${n} acknowledged`;
    }
    return null;
  } catch (error) {
    return `check failed: ${(error as Error).message}`;
  } finally {
    await pg.close().catch(() => {});
  }
}

describe("crash consistency of the embedded database", () => {
  const work = mkdtempSync(path.join(tmpdir(), "hearth-crash-db-"));
  const live = path.join(work, "db");
  const children: ChildProcess[] = [];
  const rand = random(SEED);
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
  });

  beforeAll(async () => {
    // Hearth's own open: durable unless told otherwise.
    const database = await openDatabase({ pgliteDir: live });
    await database.db.execute("select 1");
    await database.close();
    const durable = await openDurablePglite(live, {}, { windowMs: WINDOW_MS });
    await durable.client.exec(CRASH_SCHEMA);
    await durable.close();
  }, 120_000);

  it("opens with fsync on through Hearth's own open", async () => {
    const database = await openDatabase({ pgliteDir: live, durabilityWindowMs: 1000 });
    try {
      const shown = await database.db.execute("SHOW fsync");
      expect(shown.rows).toEqual([{ fsync: "on" }]);
    } finally {
      await database.close();
    }
  });

  /** HEARTH_CRASH_KEEP=dir keeps failing images there, with the runs' logs, to look into. */
  function keep(image: string, name: string): void {
    const into = process.env.HEARTH_CRASH_KEEP;
    if (!into) return;
    cpSync(image, path.join(into, name), { recursive: true });
    for (const file of readdirSync(work))
      if (file.endsWith(".log")) cpSync(path.join(work, file), path.join(into, file));
  }

  it("fsyncs commits' WAL in batches within the window, off the commit; with a window of 0, before each commit returns", async () => {
    const walSyncs: number[] = [];
    const probe = {
      beforeSync(file: string) {
        return () => {
          if (/pg_wal[/\\][0-9A-F]{24}$/.test(file)) walSyncs.push(Date.now());
        };
      },
    };
    const batched = await openDurablePglite(live, {}, { windowMs: 300, probe });
    try {
      const start = Date.now();
      for (let i = 0; i < 20; i++)
        await batched.client.query("INSERT INTO counters VALUES (1000 + $1, 0)", [i]);
      const committed = Date.now();
      // Twenty commits in well under half a window: their fsyncs are still to come...
      if (committed - start < 100) expect(walSyncs).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      // ... and a timer's fsync made them durable, with no commit after them to trigger it.
      expect(walSyncs.length).toBeGreaterThanOrEqual(1);
      expect(walSyncs.length).toBeLessThanOrEqual(2);
    } finally {
      await batched.close();
    }
    walSyncs.length = 0;
    const strict = await openDurablePglite(live, {}, { windowMs: 0, probe });
    try {
      for (let i = 0; i < 5; i++) {
        const before = walSyncs.length;
        await strict.client.query("DELETE FROM counters WHERE chat = 1000 + $1", [i]);
        expect(walSyncs.length).toBeGreaterThan(before);
      }
      await strict.client.query("DELETE FROM counters WHERE chat >= 1000");
    } finally {
      await strict.close();
    }
  });

  it("flushes the WAL inside a long statement once it is due, though the event loop (and so the timer) is held", async () => {
    // Which flushes came from a file access inside PGlite (durable-pglite's checkDue), not a timer.
    let insideStatement = 0;
    const probe = {
      beforeSync(file: string) {
        if (/pg_wal[/\\][0-9A-F]{24}$/.test(file) && new Error().stack?.includes("checkDue"))
          insideStatement++;
        return () => {};
      },
    };
    // A 2 ms window: due 1 ms after the commit, long before the statement below ends.
    const durable = await openDurablePglite(live, {}, { windowMs: 2, probe });
    try {
      // One call into PGlite, so one stretch of the event loop: a commit, then a sort that spills
      // to temporary files (reads and writes PGlite makes) for as long as it runs.
      await durable.client.exec(`
        BEGIN; INSERT INTO counters VALUES (2000, 0); COMMIT;
        SET work_mem = '64kB';
        SELECT count(*) FROM (SELECT md5(g::text) AS h FROM generate_series(1, 200000) g ORDER BY h) s;
        RESET work_mem;`);
      expect(insideStatement).toBeGreaterThanOrEqual(1);
      await durable.client.query("DELETE FROM counters WHERE chat = 2000");
    } finally {
      await durable.close();
    }
  }, 60_000);

  /**
   * One child run on `dir`, killed `killAfterMs` after its last image; answers its log and where
   * its images are.
   */
  async function run(
    dir: string,
    round: string,
    windowMs: number | null,
    cutAtMs: number[],
    killAfterMs: number,
  ) {
    const log = path.join(work, `${round}.log`);
    const cutsDir = path.join(work, `${round}-cuts`);
    const args: CrashWriterArgs = {
      dir,
      log,
      cutsDir,
      windowMs,
      seed: Math.floor(rand() * 1e9),
      cutAtMs,
      mixRate: 0.5,
    };
    const child = spawn(process.execPath, ["--import", "tsx", writer, JSON.stringify(args)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      let stdout = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("cut all")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`the writer exited with ${code}: ${stderr.slice(-3000)}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    child.kill("SIGKILL");
    await exited;
    const { acks, cuts } = readLog(log);
    return { acks, cuts, cutsDir, stderr };
  }

  it(
    `survives ${ROUNDS} SIGKILLs and ${ROUNDS * CUTS_PER_ROUND} power cuts at random points (seed ${SEED})`,
    async () => {
      const failures: string[] = [];
      let imagesChecked = 0;
      let acked = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const cutAtMs = Array.from({ length: CUTS_PER_ROUND }, () => 200 + rand() * 1600).sort(
          (a, b) => a - b,
        );
        const { acks, cuts, cutsDir } = await run(live, `r${round}`, WINDOW_MS, cutAtMs, rand() * 400);
        acked += acks.length;
        for (const cut of cuts) {
          const problem = await check(
            path.join(cutsDir, String(cut.cut)),
            acknowledged(cut.before, Math.min(cut.t, cut.flushingSince) - CHECK_WINDOW_MS),
          );
          imagesChecked++;
          if (problem) {
            failures.push(`round ${round}, power cut ${cut.cut}: ${problem}`);
            keep(path.join(cutsDir, String(cut.cut)), `r${round}-cut${cut.cut}`);
          }
        }
        rmSync(cutsDir, { recursive: true, force: true });
        // After a kill the kernel still has every write: nothing acknowledged may be missing. The
        // next round goes on from this directory, recovered.
        const problem = await check(live, acknowledged(acks, Number.POSITIVE_INFINITY));
        if (problem) failures.push(`round ${round}, SIGKILL: ${problem}`);
      }
      expect(failures, `seed ${SEED}`).toEqual([]);
      // The rounds did what they are for: commits, and every image.
      expect(acked).toBeGreaterThan(ROUNDS * 20);
      expect(imagesChecked).toBe(ROUNDS * CUTS_PER_ROUND);
    },
    120_000 + ROUNDS * 40_000,
  );

  it("notices the difference: PGlite as it ships (fsync off) loses acknowledged writes to a power cut", async () => {
    // The same run without durable writes, from a copy: its images keep only what the last
    // durable round left, with some blocks written since, and miss what was acknowledged or
    // fail a check (usually all three; one may be lucky).
    const copy = path.join(work, "control");
    cpSync(live, copy, { recursive: true });
    const { cuts, cutsDir } = await run(copy, "control", null, [1000, 1400], 0);
    const problems: string[] = [];
    for (const cut of cuts) {
      const problem = await check(
        path.join(cutsDir, String(cut.cut)),
        acknowledged(cut.before, Math.min(cut.t, cut.flushingSince) - CHECK_WINDOW_MS),
      );
      if (problem) problems.push(problem);
    }
    expect(cuts.length).toBe(2);
    expect(problems.length, "images that lost writes or failed a check").toBeGreaterThan(0);
  }, 120_000);
});

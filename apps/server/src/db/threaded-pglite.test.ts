import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDirTar } from "../../test/databases.ts";
import { type Database, openDatabase } from "./client.ts";
import { ThreadedPglite } from "./threaded-pglite.ts";

describe("PGlite on its own thread (decision 022)", () => {
  let db: ThreadedPglite;
  beforeAll(async () => {
    db = await ThreadedPglite.open({ dir: null, durabilityWindowMs: null, maintenanceEveryMs: 0 });
    await db.exec("create table notes (id int primary key, body text unique, at timestamptz)");
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  it("answers as PGlite does: rows, rows as arrays, a timestamp kept as text when the caller's parser keeps it", async () => {
    await db.query("insert into notes values ($1, $2, $3)", [1, "first", new Date("2026-01-02T03:04:05Z")]);
    const objects = await db.query<{ id: number; body: string; at: Date }>(
      "select * from notes where id = $1",
      [1],
    );
    expect(objects.rows).toEqual([{ id: 1, body: "first", at: new Date("2026-01-02T03:04:05Z") }]);
    expect(objects.fields.map((f) => f.name)).toEqual(["id", "body", "at"]);
    // Drizzle's options: arrays, and timestamps as PostgreSQL wrote them.
    const arrays = await db.query("select id, at from notes", [], {
      rowMode: "array",
      parsers: { 1184: (text: string) => text },
    });
    expect(arrays.rows).toEqual([[1, "2026-01-02 03:04:05+00"]]);
    await expect(
      db.query("select 1", [], { parsers: { 1184: (text: string) => new Date(text) } }),
    ).rejects.toThrow(/cannot run on the embedded database's thread/);
  });

  it("fails a statement with PostgreSQL's code and constraint, and goes on working", async () => {
    const failure = await db
      .query("insert into notes values (2, 'first', null)")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: "23505", constraint: "notes_body_key" });
    expect((failure as Error).message).toMatch(/duplicate key/);
    expect((await db.query("select count(*)::int as n from notes")).rows).toEqual([{ n: 1 }]);
  });

  it("commits a transaction, rolls back one that threw, and runs a statement from outside after it ends", async () => {
    const asked: { outside?: Promise<{ rows: unknown[] }> } = {};
    await db.transaction(async (tx) => {
      await tx.query("insert into notes values (10, 'in a transaction', null)");
      // Sent while the transaction is open: it must see the transaction's end, not its middle
      // (on PGlite's one backend it would otherwise run inside it, between the two statements).
      asked.outside = db.query<{ body: string }>("select body from notes where id = 10");
      await tx.query("update notes set body = 'changed' where id = 10");
    });
    expect((await asked.outside)?.rows).toEqual([{ body: "changed" }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into notes values (11, 'rolled back', null)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await db.transaction(async (tx) => {
      await tx.query("insert into notes values (12, 'also rolled back', null)");
      await tx.rollback();
      expect(tx.closed).toBe(true);
    });
    const ids = await db.query<{ id: number }>("select id from notes where id >= 10 order by id");
    expect(ids.rows).toEqual([{ id: 10 }]);
  });

  it("leaves the event loop free while a long statement runs", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    try {
      await db.query("select count(*) from generate_series(1, 4000000)");
    } finally {
      clearInterval(timer);
    }
    const ms = performance.now() - started;
    // In the main thread the statement held the loop: no timer ran until it ended.
    expect(ms).toBeGreaterThan(40);
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it("fails what was asked and what is asked later once the thread is gone, and says so once", async () => {
    const doomed = await ThreadedPglite.open({ dir: null, durabilityWindowMs: null, maintenanceEveryMs: 0 });
    const lost: Error[] = [];
    doomed.onLost((error) => lost.push(error));
    const asked = doomed.query("select count(*) from generate_series(1, 20000000)");
    await (doomed as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(asked).rejects.toThrow(/embedded database's thread stopped/);
    await expect(doomed.query("select 1")).rejects.toThrow(/embedded database's thread stopped/);
    expect(lost.map((e) => e.message)).toEqual([expect.stringMatching(/embedded database's thread stopped/)]);
    await doomed.close();
    // A database closed on purpose is not lost.
    const closed = await ThreadedPglite.open({ dir: null, durabilityWindowMs: null, maintenanceEveryMs: 0 });
    const heard: Error[] = [];
    closed.onLost((error) => heard.push(error));
    await closed.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([]);
  }, 60_000);
});

describe("a database in memory started from another's data directory (tests' migrated copy)", () => {
  it("holds what the dumped one held, and changes to either stay apart", async () => {
    const original = await openDatabase({ pgliteDir: null });
    await original.db.execute(sql`create table notes (body text)`);
    await original.db.execute(sql`insert into notes values ('kept')`);
    const seed = await dataDirTar(original);
    const copy = await openDatabase({ pgliteDir: null, seed });
    try {
      await copy.db.execute(sql`insert into notes values ('only in the copy')`);
      const bodies = async (db: Database) =>
        (await db.db.execute<{ body: string }>(sql`select body from notes order by body`)).rows.map(
          (r) => r.body,
        );
      expect(await bodies(copy)).toEqual(["kept", "only in the copy"]);
      expect(await bodies(original)).toEqual(["kept"]);
    } finally {
      await Promise.all([original.close(), copy.close()]);
    }
    await expect(openDatabase({ pgliteDir: tmpdir(), seed })).rejects.toThrow(/in memory/);
  }, 60_000);
});

describe("the database thread and the process's life", () => {
  const work = mkdtempSync(path.join(tmpdir(), "hearth-threaded-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Runs a module in a new node process (TypeScript through tsx, as the CLI runs). */
  const runModule = (body: string) => {
    const file = path.join(work, "run.mjs");
    writeFileSync(file, body);
    return spawnSync(process.execPath, ["--import", "tsx", file], {
      cwd: path.resolve(import.meta.dirname, "../../../.."),
      encoding: "utf8",
      timeout: 60_000,
    });
  };
  const open = `import { ThreadedPglite } from ${JSON.stringify(new URL("./threaded-pglite.ts", import.meta.url).href)};`;

  it("keeps the process alive for an answer, and lets it end when nothing is asked (a CLI command needs both)", () => {
    const dir = path.join(work, "db");
    // The last statement is awaited at the top level: the process must wait for its answer, and
    // then end although the database was never closed.
    const result = runModule(
      `${open}
      const db = await ThreadedPglite.open({ dir: ${JSON.stringify(dir)}, durabilityWindowMs: 0, maintenanceEveryMs: 0 });
      const { rows } = await db.query("select 41 + 1 as answer");
      console.log("answer", rows[0].answer);`,
    );
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.stdout).toContain("answer 42");
    expect(result.status).toBe(0);
  }, 90_000);
});

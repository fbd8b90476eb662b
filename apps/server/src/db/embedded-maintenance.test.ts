import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client.ts";
import { type DurablePglite, openDurablePglite } from "./durable-pglite.ts";
import { EmbeddedMaintenance, type MaintenanceRound } from "./embedded-maintenance.ts";

/**
 * Issue 18 (the soak's finding): single-user PGlite has no autovacuum and no checkpointer, so rows
 * updated every turn bloat their tables and the WAL since the last checkpoint only grows. The
 * upkeep vacuums what autovacuum would and checkpoints what a checkpointer would.
 */
describe("upkeep of the embedded database", () => {
  const work = mkdtempSync(path.join(tmpdir(), "hearth-upkeep-"));
  let durable: DurablePglite;
  let client: PGlite;
  beforeAll(async () => {
    durable = await openDurablePglite(path.join(work, "db"), {}, { windowMs: 1000 });
    client = durable.client;
  }, 60_000);
  afterAll(async () => {
    await durable.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A hot table as a chat's rows are: the same rows updated turn after turn. */
  async function turns(table: string, count: number): Promise<void> {
    for (let i = 0; i < count; i++)
      await client.query(`UPDATE ${table} SET n = n + 1, body = repeat(md5(n::text), 4)`);
  }
  const sizeOf = async (table: string) =>
    (await client.query<{ bytes: number }>("SELECT pg_total_relation_size($1)::float8 AS bytes", [table]))
      .rows[0]?.bytes ?? 0;

  it("vacuums a table whose updated rows left dead versions, and then it stops growing", async () => {
    await client.exec(`
      CREATE TABLE hot_kept (id int PRIMARY KEY, n int NOT NULL, body text NOT NULL);
      CREATE TABLE hot_left (id int PRIMARY KEY, n int NOT NULL, body text NOT NULL);
      INSERT INTO hot_kept SELECT g, 0, '' FROM generate_series(1, 200) g;
      INSERT INTO hot_left SELECT g, 0, '' FROM generate_series(1, 200) g;`);
    const upkeep = new EmbeddedMaintenance(client, { everyMs: 0 });
    await turns("hot_kept", 10);
    const before = await upkeep.stats();
    // 200 rows updated 10 times: up to 2,000 dead versions (page pruning removes some), kept.
    expect(before.deadRows).toBeGreaterThanOrEqual(1000);

    const round = await upkeep.runOnce();
    expect(round.vacuumed).toContainEqual({ table: "hot_kept", deadRows: expect.any(Number) });
    expect(round.vacuumed.find((v) => v.table === "hot_kept")?.deadRows).toBeGreaterThanOrEqual(1000);
    expect((await upkeep.stats()).deadRows).toBeLessThan(before.deadRows / 10);

    // Seventy turns with no upkeep: the table grows with every turn...
    const leftAtStart = await sizeOf("hot_left");
    await turns("hot_left", 70);
    const leftGrew = (await sizeOf("hot_left")) - leftAtStart;
    // ... while seventy turns with a round after every ten reuse the space vacuum freed.
    const keptAfterFirst = await sizeOf("hot_kept");
    for (let cycle = 0; cycle < 7; cycle++) {
      await turns("hot_kept", 10);
      await upkeep.runOnce();
    }
    const keptGrew = (await sizeOf("hot_kept")) - keptAfterFirst;
    expect(keptGrew).toBeLessThan(leftGrew / 4);
  }, 120_000);

  it("checkpoints once enough WAL has gathered, so what a crash replays stays bounded", async () => {
    const upkeep = new EmbeddedMaintenance(client, { everyMs: 0, checkpointWalBytes: 256 * 1024 });
    await client.exec("CHECKPOINT");
    const quiet = await upkeep.runOnce();
    expect(quiet.checkpointed).toBe(false);
    await turns("hot_kept", 20);
    const gathered = (await upkeep.stats()).walSinceCheckpointBytes;
    expect(gathered).toBeGreaterThanOrEqual(256 * 1024);
    expect((await upkeep.runOnce()).checkpointed).toBe(true);
    expect((await upkeep.stats()).walSinceCheckpointBytes).toBeLessThan(gathered);
  }, 60_000);

  it("runs on its own every everyMs, and stops", async () => {
    const rounds: (MaintenanceRound | Error)[] = [];
    let ran: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      ran = resolve;
    });
    const upkeep = new EmbeddedMaintenance(client, { everyMs: 20 }, (round) => {
      rounds.push(round);
      ran();
    });
    upkeep.start();
    await first;
    await upkeep.stop();
    expect(rounds[0]).not.toBeInstanceOf(Error);
    expect(upkeep.rounds).toBeGreaterThanOrEqual(1);
    const after = upkeep.rounds;
    await client.query("SELECT 1");
    expect(upkeep.rounds).toBe(after);
  });

  it("is part of Hearth's embedded database on disk, with its figures for /metrics; not in memory", async () => {
    const onDisk = await openDatabase({ pgliteDir: path.join(work, "hearth"), maintenanceEveryMs: 60_000 });
    try {
      const gauges = onDisk.gauges?.() ?? [];
      const byName = new Map(gauges.map((g) => [g.name, g]));
      expect([...byName.keys()]).toEqual(
        expect.arrayContaining([
          "hearth_embedded_wasm_memory_bytes",
          "hearth_embedded_dead_rows",
          "hearth_embedded_wal_since_checkpoint_bytes",
        ]),
      );
      const wasm = await byName.get("hearth_embedded_wasm_memory_bytes")?.read();
      expect(wasm?.[0]?.value).toBeGreaterThan(16 * 2 ** 20);
      // The upkeep runs beside PGlite on its thread (decision 022); its count comes from there.
      const rounds = await byName.get("hearth_embedded_maintenance_rounds")?.read();
      expect(rounds?.[0]?.value).toEqual(expect.any(Number));
    } finally {
      await onDisk.close();
    }
    const inMemory = await openDatabase({ pgliteDir: null });
    try {
      expect(inMemory.gauges?.()).toEqual([]);
    } finally {
      await inMemory.close();
    }
  }, 60_000);
});

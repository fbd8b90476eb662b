/**
 * Upkeep of the embedded database (issue 18, decision 019): what PostgreSQL's background
 * processes do for a server, done here from the process that owns PGlite.
 *
 * PGlite is one single-user backend: no autovacuum, no checkpointer, and its statistics are only
 * flushed when asked. So rows updated every turn (conversations, generations, messages) leave
 * dead versions that nothing removes, tables and indexes grow and get slower to read, the
 * planner's statistics are never refreshed, and the WAL since the last checkpoint grows until the
 * process stops (and a crash replays all of it). Every `everyMs` this vacuums and analyzes the
 * tables autovacuum would pick (its default thresholds), and checkpoints when enough WAL has
 * gathered or enough time has passed, as `max_wal_size` and `checkpoint_timeout` would. Each
 * statement waits its turn in PGlite's queue, between two transactions, never inside a request.
 */
import type { PGlite } from "@electric-sql/pglite";

export interface MaintenanceOptions {
  /** How often a round runs; 0 or less: never on its own (runOnce still works). */
  everyMs: number;
  /** Checkpoint once this much WAL was written since the last checkpoint (default 64 MB). */
  checkpointWalBytes?: number;
  /** ... or once the last checkpoint is this old and WAL was written since (default 5 minutes). */
  checkpointEveryMs?: number;
}

export interface MaintenanceRound {
  /** Tables vacuumed and analyzed, with the dead rows each had. */
  vacuumed: { table: string; deadRows: number }[];
  checkpointed: boolean;
}

export interface EmbeddedStats {
  /** The WebAssembly memory of PGlite (it grows and never shrinks). */
  wasmBytes: number;
  /** What PostgreSQL's own memory contexts hold now. */
  backendBytes: number;
  /** WAL written since the last checkpoint: what a crash would replay. */
  walSinceCheckpointBytes: number;
  /** Dead row versions in Hearth's tables. */
  deadRows: number;
  /** Hearth's tables with their indexes and TOAST. */
  tableBytes: number;
  /** Rounds run since the database was opened. */
  rounds: number;
}

/** Autovacuum's defaults: a table is vacuumed past 50 + 20% of its rows dead, analyzed past 50 + 10% changed. */
const VACUUM_BASE = 50;
const VACUUM_SHARE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;

interface TableStat {
  schema: string;
  table: string;
  dead: number;
  live: number;
  changed: number;
}

export class EmbeddedMaintenance {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<MaintenanceRound> | null = null;
  private stopped = false;
  private lastCheckpointAt: number;
  rounds = 0;
  /** The last round's failure, if it failed (the next round tries again). */
  lastError: Error | null = null;

  constructor(
    private readonly client: PGlite,
    private readonly options: MaintenanceOptions,
    private readonly onRound?: (round: MaintenanceRound | Error) => void,
  ) {
    this.lastCheckpointAt = Date.now();
  }

  start(): void {
    if (this.options.everyMs > 0) this.schedule();
  }

  /** Stops the timer and waits for a round already running. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runOnce()
        .then((round) => this.onRound?.(round))
        .catch((error: Error) => this.onRound?.(error))
        .finally(() => this.schedule());
    }, this.options.everyMs);
    // Upkeep never keeps a process alive.
    this.timer.unref();
  }

  /** One round now (or the one already running). */
  runOnce(): Promise<MaintenanceRound> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<MaintenanceRound> {
    try {
      const vacuumed: MaintenanceRound["vacuumed"] = [];
      for (const stat of await this.tableStats()) {
        const vacuum = stat.dead > VACUUM_BASE + VACUUM_SHARE * stat.live;
        const analyze = stat.changed > ANALYZE_BASE + ANALYZE_SHARE * stat.live;
        if (!vacuum && !analyze) continue;
        const name = `${quoteIdent(stat.schema)}.${quoteIdent(stat.table)}`;
        await this.client.exec(vacuum ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
        if (vacuum) vacuumed.push({ table: stat.table, deadRows: stat.dead });
      }
      const checkpointed = await this.checkpointIfDue();
      this.rounds++;
      this.lastError = null;
      return { vacuumed, checkpointed };
    } catch (error) {
      this.lastError = error as Error;
      throw error;
    }
  }

  private async checkpointIfDue(): Promise<boolean> {
    const since = await this.walSinceCheckpoint();
    const due =
      since >= (this.options.checkpointWalBytes ?? 64 * 2 ** 20) ||
      (since > 0 && Date.now() - this.lastCheckpointAt >= (this.options.checkpointEveryMs ?? 300_000));
    if (!due) return false;
    await this.client.exec("CHECKPOINT");
    this.lastCheckpointAt = Date.now();
    return true;
  }

  private async walSinceCheckpoint(): Promise<number> {
    const result = await this.client.query<{ bytes: number }>(
      "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 AS bytes FROM pg_control_checkpoint()",
    );
    return result.rows[0]?.bytes ?? 0;
  }

  /**
   * Hearth's tables with their dead and changed rows. A single-user backend keeps its
   * statistics to itself until told to flush them, which takes effect at the next statement.
   */
  private async tableStats(): Promise<TableStat[]> {
    await this.client.query("SELECT pg_stat_force_next_flush()");
    const result = await this.client.query<TableStat>(
      `SELECT schemaname AS schema, relname AS "table", n_dead_tup::int AS dead,
              n_live_tup::int AS live, n_mod_since_analyze::int AS changed
       FROM pg_stat_user_tables ORDER BY n_dead_tup DESC`,
    );
    return result.rows;
  }

  /** The figures the soak and /metrics show. */
  async stats(): Promise<EmbeddedStats> {
    const tables = await this.tableStats();
    const sizes = await this.client.query<{ bytes: number; backend: number }>(
      `SELECT (SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_stat_user_tables)::float8 AS bytes,
              (SELECT sum(total_bytes) FROM pg_backend_memory_contexts)::float8 AS backend`,
    );
    const module = this.client.Module as unknown as {
      wasmMemory?: { buffer: ArrayBuffer };
      HEAPU8?: Uint8Array;
    };
    return {
      wasmBytes: module.wasmMemory?.buffer.byteLength ?? module.HEAPU8?.length ?? 0,
      backendBytes: sizes.rows[0]?.backend ?? 0,
      walSinceCheckpointBytes: await this.walSinceCheckpoint(),
      deadRows: tables.reduce((sum, t) => sum + t.dead, 0),
      tableBytes: sizes.rows[0]?.bytes ?? 0,
      rounds: this.rounds,
    };
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { DEFAULT_DB_POOL } from "../config.ts";
import type { GaugeReading } from "../http/metrics.ts";
import type { EmbeddedStats } from "./embedded-maintenance.ts";
import { NamingPool } from "./pg-statements.ts";
import * as schema from "./schema.ts";
import { ThreadedPglite } from "./threaded-pglite.ts";

export type Schema = typeof schema;
interface RowsOf<T> {
  rows: T[];
}
/** Raw query results of both drivers carry `rows`; this is the part Hearth relies on. */
interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsOf<this["row"]>;
}
/** Either driver's database: the same Drizzle API, the same SQL. */
export type Db = PgDatabase<RowsResultHKT, Schema>;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** Applies pending migrations; safe to call from several processes at once on PostgreSQL. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * PGlite only: its data directory as a tar, taken between transactions (features/backups).
   * The embedded database serves one process, so an online backup must be taken inside it.
   */
  dumpDataDir?(): Promise<Blob>;
  /** Figures for /metrics about the database itself (PGlite on disk; PostgreSQL's pool). */
  gauges?(): GaugeReading[];
  /** PGlite only: `listener` hears if its thread stops unclosed (then nothing more can be stored). */
  onLost?(listener: (error: Error) => void): void;
}

const migrationsFolder = path.resolve(import.meta.dirname, "../../drizzle");
/** Any fixed number: the key of the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 7_201_911;

export type DatabaseTarget =
  | {
      url: string;
      /** Connections at most (default DEFAULT_DB_POOL). */
      poolMax?: number;
    }
  | {
      /** The data directory, or null for a database in memory (tests). */
      pgliteDir: string | null;
      /**
       * At most this many milliseconds of acknowledged commits can be lost on power loss (decision
       * 019; default 1000, 0 fsyncs every commit). null turns durable writes off, as PGlite ships:
       * only benchmarks and tests that measure that difference use it.
       */
      durabilityWindowMs?: number | null;
      /** How often the embedded database is vacuumed and checkpointed (ms; 0: never). */
      maintenanceEveryMs?: number;
      /**
       * In memory only: a data directory's tar (dumpDataDir's) to start from. Tests start each
       * database from one already migrated: an empty cluster alone takes PGlite 3-4 s to make.
       */
      seed?: Uint8Array;
    };

/** Hearth's default for HEARTH_DURABILITY_WINDOW_MS. */
export const DEFAULT_DURABILITY_WINDOW_MS = 1000;
/** Hearth's default for HEARTH_DB_MAINTENANCE_S, in ms. */
export const DEFAULT_MAINTENANCE_EVERY_MS = 60_000;

/** PostgreSQL when DATABASE_URL is set, else PGlite under the data directory. */
export function databaseTarget(config: {
  databaseUrl: string | null;
  dbPool?: number;
  dataDir: string;
  durabilityWindowMs?: number;
  dbMaintenanceS?: number;
}): DatabaseTarget {
  if (config.databaseUrl) return { url: config.databaseUrl, poolMax: config.dbPool };
  return {
    pgliteDir: path.join(config.dataDir, "db"),
    durabilityWindowMs: config.durabilityWindowMs ?? DEFAULT_DURABILITY_WINDOW_MS,
    maintenanceEveryMs:
      config.dbMaintenanceS === undefined ? DEFAULT_MAINTENANCE_EVERY_MS : config.dbMaintenanceS * 1000,
  };
}

/** Opens PostgreSQL when a URL is given, else embedded PGlite (in memory when the dir is null). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ("url" in target) return openPostgres(target.url, target.poolMax ?? DEFAULT_DB_POOL);
  const window =
    target.durabilityWindowMs === undefined ? DEFAULT_DURABILITY_WINDOW_MS : target.durabilityWindowMs;
  return openPglite(target.pgliteDir, window, target.maintenanceEveryMs ?? 0, target.seed);
}

async function openPostgres(url: string, poolMax: number): Promise<Database> {
  // Repeated statements are prepared per connection (pg-statements.ts).
  const pool = new NamingPool({ connectionString: url, max: poolMax });
  // A pool error (server restart) must not crash the process; queries report their own errors.
  pool.on("error", () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    driver: "postgres",
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
      } finally {
        // The lock also ends with the connection's session, so a failed unlock only delays it.
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
    gauges: () => poolGauges(pool, poolMax),
  };
}

/**
 * The pool, read at each scrape: statements waiting for a connection mean HEARTH_DB_POOL (or
 * PostgreSQL itself) is what requests queue for.
 */
function poolGauges(pool: NamingPool, poolMax: number): GaugeReading[] {
  return [
    unlabelledGauge(
      "hearth_db_pool_size",
      "PostgreSQL connections this process may hold (HEARTH_DB_POOL).",
      () => poolMax,
    ),
    unlabelledGauge(
      "hearth_db_pool_busy",
      "PostgreSQL connections checked out of the pool now.",
      () => pool.totalCount - pool.idleCount,
    ),
    unlabelledGauge(
      "hearth_db_pool_waiting",
      "Statements waiting for a PostgreSQL connection.",
      () => pool.waitingCount,
    ),
  ];
}

/** A gauge with one value and no labels, read when /metrics is scraped. */
function unlabelledGauge(name: string, help: string, value: () => number | Promise<number>): GaugeReading {
  return { name, help, labelNames: [], read: async () => [{ labels: {}, value: await value() }] };
}

async function openPglite(
  dir: string | null,
  durabilityWindowMs: number | null,
  maintenanceEveryMs: number,
  seed: Uint8Array | undefined,
): Promise<Database> {
  if (seed && dir) throw new Error("A seed starts a database in memory, not one on disk.");
  // PGlite runs on its own thread (threaded-pglite.ts, decision 022), durable on disk (decision
  // 019), with its repeated statements prepared and its upkeep scheduled there.
  const client = await ThreadedPglite.open({
    dir: dir ? path.resolve(dir) : null,
    durabilityWindowMs,
    maintenanceEveryMs,
    ...(seed ? { seed } : {}),
  });
  // Drizzle's PGlite driver uses query, exec and transaction, which the thread answers as PGlite.
  const pgliteDb = drizzlePglite(client as unknown as PGlite, { schema });
  return {
    db: pgliteDb as unknown as Db,
    driver: "pglite",
    migrate: () => migratePglite(pgliteDb, { migrationsFolder }),
    async ping() {
      await client.query("select 1");
    },
    close: () => client.close(),
    gauges: () => (dir ? embeddedGauges(() => client.stats()) : []),
    dumpDataDir: () => client.dumpDataDir(),
    onLost: (listener) => client.onLost(listener),
  };
}

/** The embedded database's own figures, read when /metrics is scraped. */
function embeddedGauges(read: () => Promise<EmbeddedStats | null>): GaugeReading[] {
  let reading: Promise<EmbeddedStats> | null = null;
  // One read of the database per scrape, shared by the gauges below.
  const stats = () => {
    reading ??= read()
      .then((found) => {
        if (!found) throw new Error("The embedded database keeps no figures in memory.");
        return found;
      })
      .finally(() => setTimeout(() => (reading = null), 1000).unref());
    return reading;
  };
  const gauge = (name: string, help: string, pick: (s: EmbeddedStats) => number) =>
    unlabelledGauge(name, help, async () => pick(await stats()));
  return [
    gauge(
      "hearth_embedded_wasm_memory_bytes",
      "PGlite's WebAssembly memory (it never shrinks).",
      (s) => s.wasmBytes,
    ),
    gauge(
      "hearth_embedded_backend_memory_bytes",
      "What PGlite's PostgreSQL memory contexts hold.",
      (s) => s.backendBytes,
    ),
    gauge(
      "hearth_embedded_wal_since_checkpoint_bytes",
      "WAL written since the embedded database's last checkpoint.",
      (s) => s.walSinceCheckpointBytes,
    ),
    gauge(
      "hearth_embedded_dead_rows",
      "Dead row versions in the embedded database's tables.",
      (s) => s.deadRows,
    ),
    gauge(
      "hearth_embedded_table_bytes",
      "The embedded database's tables with indexes and TOAST.",
      (s) => s.tableBytes,
    ),
    gauge(
      "hearth_embedded_maintenance_rounds",
      "Vacuum and checkpoint rounds since the start.",
      (s) => s.rounds,
    ),
  ];
}

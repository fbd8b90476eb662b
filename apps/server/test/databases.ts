import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client.ts";

/**
 * Database tests run on both drivers: embedded PGlite and the machine's real PostgreSQL.
 * Each PostgreSQL test database is created fresh and dropped afterwards.
 */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export type Driver = "pglite" | "postgres";
export const drivers: Driver[] = ["pglite", "postgres"];

export interface TestDatabase {
  database: Database;
  /** Set for PostgreSQL: the URL of the fresh database, for a server process to use. */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * TEST_PGLITE_ON_DISK (benchmarks): PGlite in a fresh directory instead of in memory, with this
 * durability window in ms (decision 019), or `off` for PGlite as it ships (fsync off).
 */
async function pgliteOnDisk(window: string): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-pglite-"));
  const database = await openDatabase({
    pgliteDir: path.join(dir, "db"),
    durabilityWindowMs: window === "off" ? null : Number(window),
  });
  await database.migrate();
  return {
    database,
    url: null,
    async drop() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Connections per test database's pool (pool-size.test.ts opens its own with the default). */
export const TEST_POOL_MAX = 10;

/**
 * A fresh database, already migrated. Each is a copy of one migrated empty database (below):
 * making a cluster and running every migration took PGlite 4-5 s and PostgreSQL 0.6 s per test
 * database, most of CI's unit tier outside the tests themselves. migrate() still runs, and finds
 * nothing to do; migrations.test.ts migrates from nothing.
 */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === "pglite") {
    const onDisk = process.env.TEST_PGLITE_ON_DISK;
    if (onDisk) return pgliteOnDisk(onDisk);
    const database = await openDatabase({ pgliteDir: null, seed: await migratedPgliteSeed() });
    await database.migrate();
    return { database, url: null, drop: () => database.close() };
  }
  const name = `hearth_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${await migratedPostgresTemplate()}`);
  const url = postgresUrlOf(name);
  // Ten connections, not a process's 30: several test files and processes share one PostgreSQL
  // (100 connections in all).
  const database = await openDatabase({ url, poolMax: TEST_POOL_MAX });
  await database.migrate();
  return {
    database,
    url,
    async drop() {
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

function postgresUrlOf(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * What a migrated empty database depends on: the migrations and the PGlite build. A copy made
 * under another key is never used, so a changed migration cannot meet an old template.
 */
const schemaKey = lazily(() => {
  const hash = createHash("sha256");
  const add = (file: string) => hash.update(path.relative(root, file)).update(readFileSync(file));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else add(file);
    }
  };
  walk(path.join(root, "apps/server/drizzle"));
  for (const pkg of ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"])
    add(path.join(root, "node_modules", pkg, "package.json"));
  return hash.digest("hex").slice(0, 16);
});
const root = path.resolve(import.meta.dirname, "../../..");

/**
 * PGlite's migrated empty data directory as a tar, made once per machine and migration set: kept
 * in the temporary folder, so every test process (and the next run) reads it instead of making it.
 */
const migratedPgliteSeed = lazily(async () => {
  const file = path.join(tmpdir(), `hearth-test-pglite-${schemaKey()}.tar`);
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const database = await openDatabase({ pgliteDir: null });
  await database.migrate();
  const seed = await dataDirTar(database);
  await database.close();
  // Written whole, then renamed: a file read at the same time is never half written.
  const partial = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, seed);
  renameSync(partial, file);
  return seed;
});

/** An embedded database's data directory as a tar (a seed for openDatabase). */
export async function dataDirTar(database: Database): Promise<Uint8Array> {
  const dump = await database.dumpDataDir?.();
  if (!dump) throw new Error("Only the embedded database gives its data directory.");
  return new Uint8Array(await dump.arrayBuffer());
}

/**
 * A migrated empty embedded database on disk, as `hearth start` makes in `<data dir>/db` on its
 * first start, made once per machine and migration set (browser tests copy it into each server's
 * data directory). Answers its path.
 */
export async function migratedEmbeddedDir(): Promise<string> {
  const dir = embeddedTemplatePath();
  if (existsSync(dir)) return dir;
  const building = mkdtempSync(`${dir}-building-`);
  const database = await openDatabase({ pgliteDir: path.join(building, "db") });
  await database.migrate();
  await database.close();
  try {
    // Whole, then renamed: another process that made it meanwhile keeps its own.
    renameSync(path.join(building, "db"), dir);
  } catch (error) {
    if (!existsSync(dir)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** Where migratedEmbeddedDir keeps its database (it may not be made yet). */
export function embeddedTemplatePath(): string {
  return path.join(tmpdir(), `hearth-test-embedded-${schemaKey()}`);
}

/**
 * PostgreSQL's migrated empty database, which test databases are made from (CREATE DATABASE ...
 * TEMPLATE): made once per migration set, under a lock so that processes starting together make
 * it once, and under a second name until it is whole.
 */
const migratedPostgresTemplate = lazily(async () => {
  const template = `hearth_template_${schemaKey()}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    const made = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (made.rowCount) return template;
    const building = `${template}_building`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const database = await openDatabase({ url: postgresUrlOf(building), poolMax: 1 });
    await database.migrate();
    await database.close();
    // PostgreSQL waits for the closed connection's backend to leave before renaming.
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    return template;
  } finally {
    await admin.end();
  }
});
/** Any fixed number: the advisory lock around making the template. */
const TEMPLATE_LOCK_KEY = 7_201_912;

/**
 * An empty PGlite in memory, as `PGlite.create()` makes one, but started from an empty cluster's
 * tar made once per process: about 1 s instead of 3-4 (tests of PGlite itself, or of migrations).
 */
export async function emptyPglite(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: new Blob([await emptyClusterSeed()]) });
}
const emptyClusterSeed = lazily(async () => {
  const pglite = await PGlite.create();
  const tar = new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer());
  await pglite.close();
  return tar;
});

/** `make`'s answer, made on the first call; a failure is not kept, so the next call tries again. */
function lazily<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => {
    if (made) return made.value;
    const value = make();
    made = { value };
    if (value instanceof Promise) value.catch(() => (made = null));
    return value;
  };
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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

export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === "pglite") {
    const onDisk = process.env.TEST_PGLITE_ON_DISK;
    if (onDisk) return pgliteOnDisk(onDisk);
    const database = await openDatabase({ pgliteDir: null });
    await database.migrate();
    return { database, url: null, drop: () => database.close() };
  }
  const name = `hearth_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  // Ten connections, not a process's 30: several test files and processes share one PostgreSQL
  // (100 connections in all).
  const database = await openDatabase({ url: url.toString(), poolMax: TEST_POOL_MAX });
  await database.migrate();
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
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

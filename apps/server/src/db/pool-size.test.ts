import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { openDatabase } from "./client.ts";

/**
 * PostgreSQL's pool holds at most `poolMax` connections (HEARTH_DB_POOL): statements beyond it
 * wait for one, seen from the server's side as distinct backends.
 */
describe("the PostgreSQL pool's size", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await test?.drop();
  });

  /** The backends that answered `statements` statements sent at once, each taking a moment. */
  async function backendsFor(poolMax: number | undefined, statements: number): Promise<number> {
    const database = await openDatabase({ url: test.url as string, poolMax });
    try {
      const pids = await Promise.all(
        Array.from({ length: statements }, async () => {
          const result = await database.db.execute<{ pid: number }>(
            sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`,
          );
          return result.rows[0]?.pid;
        }),
      );
      return new Set(pids).size;
    } finally {
      await database.close();
    }
  }

  it("never holds more than poolMax connections", async () => {
    expect(await backendsFor(3, 12)).toBe(3);
  });

  it("reports its size, busy connections and waiting statements to /metrics", async () => {
    const database = await openDatabase({ url: test.url as string, poolMax: 2 });
    try {
      const running = Promise.all(
        Array.from({ length: 5 }, () => database.db.execute(sql`SELECT pg_sleep(0.2)`)),
      );
      await new Promise((settle) => setTimeout(settle, 100));
      const read = async () =>
        Object.fromEntries(
          await Promise.all(
            (database.gauges?.() ?? []).map(async (g) => [g.name, (await g.read())[0]?.value] as const),
          ),
        );
      expect(await read()).toEqual({
        hearth_db_pool_size: 2,
        hearth_db_pool_busy: 2,
        hearth_db_pool_waiting: 3,
      });
      await running;
      expect(await read()).toMatchObject({ hearth_db_pool_busy: 0, hearth_db_pool_waiting: 0 });
    } finally {
      await database.close();
    }
  });

  it("holds up to 30 by default", async () => {
    expect(await backendsFor(undefined, 40)).toBe(30);
  });
});

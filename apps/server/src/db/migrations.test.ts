import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { createTestDatabase, drivers } from "../../test/databases.ts";
import { openDatabase } from "./client.ts";
import * as schema from "./schema.ts";

/** The table names the Drizzle schema declares, sorted. */
function schemaTables(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableName(table))
    .sort();
}

describe.each(drivers)("migrations on %s", (driver) => {
  it("create every table, and running them again changes nothing", async () => {
    const t = await createTestDatabase(driver);
    try {
      await t.database.migrate();
      const rows = await t.database.db.execute<{ table_name: string }>(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      // Exactly the schema's tables: one the migrations forget, or leave behind, fails here.
      expect(rows.rows.map((r) => r.table_name).sort()).toEqual(schemaTables());
    } finally {
      await t.drop();
    }
    // A fresh PGlite runs every migration twice here: over a minute on two busy cores.
  }, 180_000);
});

describe("migrations on postgres from several processes at once", () => {
  it("serialise on an advisory lock instead of failing", async () => {
    const t = await createTestDatabase("postgres");
    try {
      const others = await Promise.all([0, 1, 2].map(() => openDatabase({ url: t.url as string })));
      await Promise.all(others.map((d) => d.migrate()));
      await Promise.all(others.map((d) => d.close()));
    } finally {
      await t.drop();
    }
  });
});

describe("PGlite on disk", () => {
  it("keeps data across a reopen of the same directory", async () => {
    const dir = mkdtempSync(`${tmpdir()}/hearth-pglite-`);
    const first = await openDatabase({ pgliteDir: dir });
    await first.migrate();
    await first.db.execute(
      sql`insert into verifications (id, identifier, value, expires_at) values ('v1', 'i', 'v', now())`,
    );
    await first.close();
    const second = await openDatabase({ pgliteDir: dir });
    const rows = await second.db.execute<{ id: string }>(sql`select id from verifications`);
    expect(rows.rows).toEqual([{ id: "v1" }]);
    await second.close();
  });
});

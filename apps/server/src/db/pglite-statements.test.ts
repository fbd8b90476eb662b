import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyPglite } from "../../test/databases.ts";
import { type PreparedStatements, prepareRepeatedStatements } from "./pglite-statements.ts";

const items = pgTable("items", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  count: integer("count").notNull(),
  data: jsonb("data"),
  at: timestamp("at", { withTimezone: true }).notNull(),
});

/** PGlite with repeated statements prepared, beside a plain PGlite holding the same rows. */
describe("named statements on PGlite", () => {
  let pg: PGlite;
  let plain: PGlite;
  let statements: PreparedStatements;
  const setup = `create table items (id uuid primary key, name text not null unique, count int not null,
    data jsonb, at timestamptz not null, tags text[] default '{}', big bigint default 9007199254740993)`;

  beforeEach(async () => {
    [pg, plain] = await Promise.all([emptyPglite(), emptyPglite()]);
    statements = prepareRepeatedStatements(pg);
    for (const db of [pg, plain]) await db.exec(setup);
  });
  afterEach(async () => {
    await pg.close();
    await plain.close();
  });

  const insert = `insert into items (id, name, count, data, at, tags) values ($1, $2, $3, $4, $5, $6) returning *`;
  const row = (n: number) => [
    `00000000-0000-4000-8000-00000000000${n}`,
    `item ${n} "quoted" ü`,
    n,
    { nested: [n, null, "x"] },
    new Date(Date.UTC(2026, 10, 29, 12, 0, n)),
    [`t${n}`, "two words"],
  ];

  it("answers what PGlite answers, through one named statement once a text repeats", async () => {
    for (let n = 1; n <= 4; n++) {
      const [a, b] = [await pg.query(insert, row(n)), await plain.query(insert, row(n))];
      expect(a.rows).toEqual(b.rows);
      expect(a.fields).toEqual(b.fields);
      expect(a.affectedRows).toBe(b.affectedRows);
    }
    const select =
      "select *, count * 2 as twice, null::text as nothing from items where count >= $1 order by count";
    for (const mode of ["object", "array"] as const) {
      for (let i = 0; i < 3; i++) {
        const [a, b] = [
          await pg.query(select, [2], { rowMode: mode }),
          await plain.query(select, [2], { rowMode: mode }),
        ];
        expect(a.rows).toEqual(b.rows);
        expect(a.rows).toHaveLength(3);
      }
    }
    // The first insert and first select ran PGlite's own way; the rest through named statements.
    expect(statements.size).toBe(2);
    expect(statements.served).toBe(3 + 5);
    const update = await pg.query("update items set count = count + 1 where count > $1", [100]);
    expect(update.affectedRows).toBe(0);
  });

  it("serves drizzle's queries the same (rows as arrays, its own parsers)", async () => {
    const db = drizzle(pg);
    for (let n = 1; n <= 3; n++) await pg.query(insert, row(n));
    for (let i = 0; i < 3; i++) {
      const got = await db.select().from(items).where(eq(items.count, 2));
      expect(got).toEqual([
        {
          id: "00000000-0000-4000-8000-000000000002",
          name: 'item 2 "quoted" ü',
          count: 2,
          data: { nested: [2, null, "x"] },
          at: new Date(Date.UTC(2026, 10, 29, 12, 0, 2)),
        },
      ]);
    }
    const counted = await db.execute(sql`select count(*)::int as n from ${items}`);
    expect(counted.rows).toEqual([{ n: 3 }]);
    expect(statements.served).toBeGreaterThanOrEqual(2);
  });

  it("fails a statement as PGlite does and goes on working", async () => {
    await pg.query(insert, row(1));
    await pg.query(insert, row(2));
    // A duplicate through the named statement: PostgreSQL's unique violation.
    await expect(pg.query(insert, row(2))).rejects.toMatchObject({ code: "23505" });
    await expect(pg.query(insert, ["not-a-uuid", ...row(3).slice(1)])).rejects.toMatchObject({
      code: "22P02",
    });
    const next = await pg.query(insert, row(3));
    expect(next.rows).toHaveLength(1);
    expect((await pg.query<{ n: number }>("select count(*)::int as n from items")).rows[0]?.n).toBe(3);
  });

  it("prepares again when a table changes under a kept statement", async () => {
    await pg.query(insert, row(1));
    const select = "select * from items where count = $1";
    await pg.query(select, [1]);
    expect(Object.keys((await pg.query(select, [1])).rows[0] as object)).not.toContain("extra");
    await pg.exec("alter table items add column extra text default 'yes'");
    for (let i = 0; i < 3; i++) {
      expect((await pg.query<{ extra: string }>(select, [1])).rows[0]?.extra).toBe("yes");
    }
  });

  it("keeps a statement out of another caller's transaction", async () => {
    await pg.query(insert, row(1));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = pg.transaction(async (t) => {
      await t.query("update items set count = 100");
      await held;
      await t.rollback();
    });
    // Sent while the transaction is open: it must run after it, not inside it (and be rolled back).
    const outside = pg.query(insert, row(2));
    release();
    await tx;
    await outside;
    const rows = (await pg.query<{ count: number }>("select count from items order by count")).rows;
    expect(rows.map((r) => r.count)).toEqual([1, 2]);
  });

  it("keeps at most its limit of statements, closing the least recently used", async () => {
    const many = 320;
    for (let i = 0; i < many; i++) {
      for (let k = 0; k < 2; k++) {
        const got = await pg.query<{ v: number }>(`select $1::int + ${i} as v`, [k]);
        expect(got.rows[0]?.v).toBe(i + k);
      }
    }
    expect(statements.size).toBe(300);
    // The server holds as many: evicted ones were closed.
    const held = await pg.query<{ n: number }>(
      "select count(*)::int as n from pg_prepared_statements where name like 'hearth_s%'",
    );
    expect(held.rows[0]?.n).toBeLessThanOrEqual(301);
    // An evicted text still answers (prepared anew).
    expect((await pg.query<{ v: number }>("select $1::int + 0 as v", [5])).rows[0]?.v).toBe(5);
  });
});

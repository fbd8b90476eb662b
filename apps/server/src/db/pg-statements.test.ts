import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/databases.ts";
import { NamingPool } from "./pg-statements.ts";

const items = pgTable("naming_items", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  count: integer("count").notNull(),
  data: jsonb("data"),
});

/** Repeated statements on PostgreSQL run as named prepared statements, with the same answers. */
describe("named statements on PostgreSQL", () => {
  let database: TestDatabase;
  let pool: NamingPool;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    pool = new NamingPool({ connectionString: database.url as string, max: 3 });
    await pool.query(
      "create table naming_items (id uuid primary key, name text not null unique, count int not null, data jsonb)",
    );
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /** The statements a connection of the pool has prepared, by name. */
  const preparedHere = async () => {
    const client = await pool.connect();
    try {
      return (await client.query<{ name: string }>("select name from pg_prepared_statements")).rows.map(
        (r) => r.name,
      );
    } finally {
      client.release();
    }
  };

  it("names a text from its second use, on every connection, with drizzle's answers unchanged", async () => {
    const db = drizzle(pool);
    const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    for (let n = 1; n <= 5; n++) {
      await db
        .insert(items)
        .values({ id: id(n), name: `item ${n} ü`, count: n, data: { n, list: [n, null] } });
    }
    const before = pool.named;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 1, 2, 3].map((n) =>
        db
          .select()
          .from(items)
          .where(eq(items.id, id(n))),
      ),
    );
    expect(answers.map((rows) => rows[0]?.count)).toEqual([1, 2, 3, 4, 5, 1, 2, 3]);
    expect(answers[0]?.[0]).toEqual({
      id: id(1),
      name: "item 1 ü",
      count: 1,
      data: { n: 1, list: [1, null] },
    });
    expect(pool.named - before).toBeGreaterThanOrEqual(7);
    const counted = await db.execute(sql`select count(*)::int as n from ${items}`);
    expect(counted.rows).toEqual([{ n: 5 }]);
    expect((await preparedHere()).some((name) => name.startsWith("hearth_n"))).toBe(true);
  });

  it("fails a statement as before and goes on", async () => {
    const insert = "insert into naming_items (id, name, count) values ($1, $2, $3)";
    await pool.query({ text: insert }, ["00000000-0000-4000-8000-000000000010", "ten", 10]);
    await expect(
      pool.query({ text: insert }, ["00000000-0000-4000-8000-000000000011", "ten", 11]),
    ).rejects.toMatchObject({ code: "23505" });
    await expect(pool.query({ text: insert }, ["not-a-uuid", "eleven", 11])).rejects.toMatchObject({
      code: "22P02",
    });
    await pool.query({ text: insert }, ["00000000-0000-4000-8000-000000000011", "eleven", 11]);
    const got = await pool.query(
      { text: "select count(*)::int as n from naming_items where count >= $1" },
      [10],
    );
    expect(got.rows).toEqual([{ n: 2 }]);
  });

  it("answers unnamed once a table changed under a named statement's plan", async () => {
    const select = { text: "select * from naming_items where count = $1" };
    for (let i = 0; i < 3; i++) await pool.query(select, [1]);
    expect(pool.isNamed(select.text)).toBe(true);
    await pool.query("alter table naming_items add column extra text default 'yes'");
    for (let i = 0; i < 4; i++) {
      const got: { rows: { extra: string }[] } = await pool.query(select, [1]);
      expect(got.rows[0]?.extra).toBe("yes");
    }
    // PostgreSQL refused the named statement's old plan: the text goes unnamed from then on.
    expect(pool.isNamed(select.text)).toBe(false);
  });
});

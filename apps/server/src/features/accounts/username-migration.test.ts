import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Driver, drivers, emptyPglite, TEST_POSTGRES_URL } from "../../../test/databases.ts";

/**
 * Migration 0005 makes usernames canonical (lowercase ASCII, one per name) before it adds the
 * check. It must not fail on what older versions let in: case duplicates, look-alikes from other
 * scripts, punctuation, 5,000 characters.
 */
const MIGRATIONS = path.resolve(import.meta.dirname, "../../../drizzle");

/** A copy of the migrations that stops before `idx`: the database as an older Hearth left it. */
function migrationsBefore(idx: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-migrations-"));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx < idx);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

interface Target {
  execute(query: ReturnType<typeof sql>): Promise<{ rows: Record<string, unknown>[] }>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function open(driver: Driver): Promise<Target> {
  if (driver === "pglite") {
    const client = await emptyPglite();
    const db = drizzlePglite(client);
    return {
      execute: (q) => db.execute(q) as Promise<{ rows: Record<string, unknown>[] }>,
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const name = `hearth_mig_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await c.connect();
    await c.query(statement).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString() });
  const db = drizzleNodePg(pool);
  return {
    execute: (q) => db.execute(q) as Promise<{ rows: Record<string, unknown>[] }>,
    migrate: (folder) => migrateNodePg(db, { migrationsFolder: folder }),
    async close() {
      await pool.end();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

describe.each(drivers)("migration 0005 on existing usernames (%s)", (driver) => {
  let t: Target;
  let before: string;
  beforeAll(async () => {
    t = await open(driver);
    before = migrationsBefore(5);
    await t.migrate(before);
  });
  afterAll(async () => {
    await t.close();
    rmSync(before, { recursive: true, force: true });
  });

  it("keeps one canonical name per person and clears what no rule allows", async () => {
    // [username, minutes ago the account was made]
    const rows: [string | null, number][] = [
      ["ALICE", 30], // older, but not lowercase: `alice` keeps the name
      ["alice", 10],
      ["Bob_Smith", 20], // unique: lowercased
      ["BOB_SMITH2", 20],
      ["Bad Name!!", 5], // punctuation and a space
      ["\u0430lice", 5], // Cyrillic а: a look-alike of alice
      ["x".repeat(5000), 5],
      ["ab", 5], // too short
      ["Zed", 40], // and `zed` below is newer: Zed, the older, keeps it
      ["zeD", 3],
      [null, 5],
    ];
    const ids: string[] = [];
    for (const [name, ago] of rows) {
      const id = randomUUID();
      ids.push(id);
      await t.execute(sql`
        insert into users (id, name, email, username, created_at)
        values (${id}, 'Someone', ${`${id}@example.com`}, ${name}, now() - make_interval(mins => ${ago}))`);
    }

    await t.migrate(MIGRATIONS);

    const after = await t.execute(sql`select id, username from users`);
    const byId = new Map(after.rows.map((r) => [r.id as string, r.username as string | null]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      null,
      "alice",
      "bob_smith",
      "bob_smith2",
      null,
      null,
      null,
      null,
      "zed",
      null,
      null,
    ]);
  });

  it("leaves the database refusing a name that is not canonical, whoever writes it", async () => {
    const attempt = (name: string) =>
      t.execute(sql`
        insert into users (id, name, email, username)
        values (${randomUUID()}, 'Someone', ${`${randomUUID()}@example.com`}, ${name})`);
    await expect(attempt("UPPER")).rejects.toMatchObject({
      cause: expect.objectContaining({ code: "23514" }),
    });
    await expect(attempt("\u0430lice2")).rejects.toMatchObject({
      cause: expect.objectContaining({ code: "23514" }),
    });
    await expect(attempt("alice")).rejects.toMatchObject({
      cause: expect.objectContaining({ code: "23505" }),
    });
    await attempt("fresh_name");
    const counters = await t.execute(sql`select count(*)::int as n from auth_counters`);
    expect(counters.rows[0]?.n).toBe(0);
  });
});

/**
 * Migration 0021 marks the deleted creators' account an install already has (made under the
 * username deleted_user with its own address, no way to sign in) as the system account, and
 * never a member's account, which has a sign-in.
 */
describe.each(drivers)("migration 0021 on an existing deleted-user placeholder (%s)", (driver) => {
  let before: string;
  beforeAll(() => {
    before = migrationsBefore(21);
  });
  afterAll(() => {
    rmSync(before, { recursive: true, force: true });
  });

  it.each([
    ["the placeholder, with no sign-in, becomes the system account", false, "deleted-creator"],
    ["a member who signed up with that address stays a member", true, null],
  ])("%s", async (_what, withSignIn, expected) => {
    const t = await open(driver);
    try {
      await t.migrate(before);
      const id = randomUUID();
      await t.execute(sql`
        insert into users (id, name, email, username)
        values (${id}, 'Deleted user', 'deleted-user@hearth.invalid', 'deleted_user')`);
      if (withSignIn) {
        await t.execute(sql`
          insert into accounts (id, account_id, provider_id, user_id, password)
          values (${randomUUID()}, ${id}, 'credential', ${id}, 'hash')`);
      }
      await t.migrate(MIGRATIONS);
      const after = await t.execute(sql`select system_account from users where id = ${id}`);
      expect(after.rows).toEqual([{ system_account: expected }]);
    } finally {
      await t.close();
    }
  });
});

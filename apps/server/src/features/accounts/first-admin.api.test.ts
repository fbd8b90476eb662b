import { randomUUID } from "node:crypto";
import type { AppConfig, Me } from "@hearth/contract";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { ensureSystemUser } from "../characters/index.ts";
import { claimFirstAdmin, FIRST_ADMIN_LOCK_KEY } from "./first-admin.ts";
import { accounts, users } from "./schema.ts";

/** The first account that signs up on a fresh install becomes the administrator (issue 9). */
describe.each(drivers)("first administrator on %s", (driver) => {
  let h: TestHearth | null = null;
  afterEach(async () => {
    await h?.stop();
    h = null;
  });

  const start = async (firstUserAdmin: boolean) => {
    h = await startTestHearth({ driver, env: { HEARTH_FIRST_USER_ADMIN: String(firstUserAdmin) } });
    return h;
  };
  const config = async (t: TestHearth) =>
    (await t.app.inject({ method: "GET", url: "/api/config" })).json<AppConfig>().auth.first_user_admin;
  const me = async (t: TestHearth, cookie: string) =>
    (await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).json<Me>();

  it("makes the first sign-up the administrator, not the system account, guests or later sign-ups", async () => {
    const t = await start(true);
    expect(await config(t)).toBe(true);

    // The demo characters' owner and a guest are no one's first account.
    await ensureSystemUser(t.database.db);
    const guest = await t.signInAsGuest();
    expect(await me(t, guest.cookie)).toMatchObject({ is_guest: true, is_admin: false });
    expect(await config(t)).toBe(true);

    const first = await t.signUp({ name: "Founder" });
    const founder = await me(t, first.cookie);
    expect(founder).toMatchObject({ is_admin: true, is_guest: false });
    expect(founder.permissions).toContain("admin");
    expect(await config(t)).toBe(false);

    const second = await t.signUp({ name: "Newcomer" });
    const newcomer = await me(t, second.cookie);
    expect(newcomer.is_admin).toBe(false);
    expect(newcomer.permissions).not.toContain("admin");
    // The founder really can administer: the users list answers them and refuses the newcomer.
    const list = (cookie: string) =>
      t.app.inject({ method: "GET", url: "/api/admin/users", headers: { cookie } });
    expect((await list(first.cookie)).statusCode).toBe(200);
    expect((await list(second.cookie)).statusCode).toBe(403);
  });

  it("gives simultaneous first sign-ups exactly one administrator", async () => {
    const t = await start(true);
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => t.signUp({ name: `Racer ${i}` })));
    const admins = (await Promise.all(people.map((p) => me(t, p.cookie)))).filter((m) => m.is_admin);
    expect(admins).toHaveLength(1);
    expect(await config(t)).toBe(false);
  });

  it("HEARTH_FIRST_USER_ADMIN=false: nobody becomes administrator by signing up", async () => {
    const t = await start(false);
    expect(await config(t)).toBe(false);
    const first = await t.signUp({ name: "Founder" });
    expect((await me(t, first.cookie)).is_admin).toBe(false);
  });
});

describe("first administrator under concurrency on PostgreSQL", () => {
  it("decides one sign-up at a time: a claim waits while another holds the decision", async () => {
    const testDb = await createTestDatabase("postgres");
    const holder = new pg.Client({ connectionString: testDb.url ?? "" });
    await holder.connect();
    try {
      const { db } = testDb.database;
      const id = randomUUID();
      await db.insert(users).values({ id, name: "Founder", email: `${id}@example.com` });
      await db
        .insert(accounts)
        .values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id });

      // Another process is deciding for its own sign-up (it holds the lock inside its transaction).
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock($1)", [FIRST_ADMIN_LOCK_KEY]);
      let settled = false;
      const claim = claimFirstAdmin(db, id).finally(() => {
        settled = true;
      });
      await new Promise((wait) => setTimeout(wait, 500));
      expect(settled).toBe(false);
      await holder.query("COMMIT");
      expect(await claim).toBe(true);
      expect(await claimFirstAdmin(db, id)).toBe(false);
    } finally {
      await holder.end();
      await testDb.drop();
    }
  });
});

import { randomUUID } from "node:crypto";
import type { AppConfig, Me } from "@hearth/contract";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { ensureSystemUser } from "../characters/index.ts";
import {
  claimFirstAdmin,
  FIRST_ADMIN_LOCK_KEY,
  requesterFromHeaders,
  settleFirstAdmin,
} from "./first-admin.ts";
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

  /** A sign-up as the browser at `origin` sends it, from the client address `from`. */
  const signUpFrom = async (
    t: TestHearth,
    from: string,
    origin: string,
    extra: Record<string, string> = {},
  ) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      remoteAddress: from,
      headers: { "content-type": "application/json", origin, host: new URL(origin).host, ...extra },
      payload: JSON.stringify({
        email: `${randomUUID()}@example.com`,
        password: "correct horse battery",
        name: "Founder",
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return String(res.headers["set-cookie"]).split(";")[0] ?? "";
  };
  const configFrom = async (t: TestHearth, from: string, headers: Record<string, string> = {}) =>
    (
      await t.app.inject({ method: "GET", url: "/api/config", remoteAddress: from, headers })
    ).json<AppConfig>().auth.first_user_admin;

  it("without PUBLIC_URL, a first sign-up from another machine stays a member; the first-run note shows only on this machine", async () => {
    const t = await start(true);
    expect(await configFrom(t, "192.168.1.30")).toBe(false);
    expect(await configFrom(t, "::1")).toBe(true);
    const lan = await signUpFrom(t, "192.168.1.30", "http://192.168.1.5:3000");
    expect(await me(t, lan)).toMatchObject({ is_admin: false, is_guest: false });
    // A client cannot claim to be this machine with Hearth's own request headers.
    const forged = await signUpFrom(t, "192.168.1.31", "http://192.168.1.5:3000", {
      "x-hearth-requester": JSON.stringify({ loopback: true, host: "localhost" }),
    });
    expect((await me(t, forged)).is_admin).toBe(false);
    expect(await configFrom(t, "127.0.0.1")).toBe(false);
  });

  it("through a proxy on this machine that Hearth does not trust, a first sign-up stays a member", async () => {
    const t = await start(true);
    const forwarded = { "x-forwarded-for": "203.0.113.7" };
    expect(await configFrom(t, "127.0.0.1", forwarded)).toBe(false);
    const proxied = await signUpFrom(t, "127.0.0.1", "http://localhost:3000", forwarded);
    expect((await me(t, proxied)).is_admin).toBe(false);
  });

  it("from this machine (IPv6 loopback too), the first sign-up becomes the administrator", async () => {
    const t = await start(true);
    const local = await signUpFrom(t, "::1", "http://[::1]:3000");
    expect((await me(t, local)).is_admin).toBe(true);
  });

  it("through PUBLIC_URL, a first sign-up from anywhere becomes the administrator; the same address by IP does not", async () => {
    h = await startTestHearth({
      driver,
      env: { HEARTH_FIRST_USER_ADMIN: "true", PUBLIC_URL: "https://chat.example.com" },
    });
    expect(await configFrom(h, "203.0.113.7", { host: "10.0.0.5:3000" })).toBe(false);
    expect(await configFrom(h, "203.0.113.7", { host: "chat.example.com" })).toBe(true);
    const founder = await signUpFrom(h, "203.0.113.7", "https://chat.example.com");
    expect((await me(h, founder)).is_admin).toBe(true);
  });

  it("behind a trusted proxy, the forwarded client must be this machine, and 127.0.0.1 written by the client is not", async () => {
    h = await startTestHearth({
      driver,
      env: { HEARTH_FIRST_USER_ADMIN: "true", HEARTH_TRUST_PROXY: "true" },
    });
    // The proxy runs on this machine and appends the address it saw.
    expect(await configFrom(h, "127.0.0.1", { "x-forwarded-for": "127.0.0.1" })).toBe(true);
    expect(await configFrom(h, "127.0.0.1", { "x-forwarded-for": "203.0.113.7" })).toBe(false);
    const forged = { "x-forwarded-for": "127.0.0.1, 203.0.113.7" };
    expect(await configFrom(h, "127.0.0.1", forged)).toBe(false);
    const cookie = await signUpFrom(h, "127.0.0.1", "http://localhost:3000", forged);
    expect((await me(h, cookie)).is_admin).toBe(false);
  });

  it("tells the operator how to make a first account from elsewhere the administrator", async () => {
    const testDb = await createTestDatabase(driver);
    try {
      const { db } = testDb.database;
      const id = randomUUID();
      const email = `${id}@example.com`;
      await db.insert(users).values({ id, name: "Founder", email });
      const warnings: string[] = [];
      const log = { warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message) };
      const remote = { loopback: false, host: "192.168.1.5:3000" };
      await settleFirstAdmin(db, { id, email }, remote, null, log);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`hearth user set-role ${email} --admin`);
      expect(warnings[0]).toMatch(/PUBLIC_URL is not set/);
      const [row] = await db.select({ isAdmin: users.isAdmin }).from(users);
      expect(row?.isAdmin).toBe(false);
      // A later account is no one's first: nothing to tell.
      const later = randomUUID();
      await db.insert(users).values({ id: later, name: "Later", email: `${later}@example.com` });
      await db
        .insert(accounts)
        .values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id });
      await settleFirstAdmin(db, { id: later, email: `${later}@example.com` }, remote, null, log);
      expect(warnings).toHaveLength(1);
      // From this machine, the claim is made.
      await settleFirstAdmin(db, { id, email }, { loopback: true, host: "localhost" }, null, log);
      const [claimed] = await db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, id));
      expect(claimed?.isAdmin).toBe(true);
    } finally {
      await testDb.drop();
    }
  });
});

describe("the requester better-auth's hook reads", () => {
  it("is believed only as Hearth wrote it, never as a client forged it", () => {
    const forged = JSON.stringify({ loopback: true, host: "localhost" });
    expect(requesterFromHeaders(new Headers({ "x-hearth-requester": forged }))).toBeNull();
    expect(requesterFromHeaders(new Headers({ "x-hearth-requester": "not json" }))).toBeNull();
    expect(requesterFromHeaders(new Headers())).toBeNull();
    expect(requesterFromHeaders(undefined)).toBeNull();
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

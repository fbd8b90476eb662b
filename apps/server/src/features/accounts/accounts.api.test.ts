import type { AdminUserList, ApiError, Me } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";

const ORIGIN = {
  origin: "http://localhost:3000",
  host: "localhost:3000",
  "content-type": "application/json",
};

describe.each(drivers)("accounts API on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(async () => {
    await h.stop();
  });

  const me = (cookie?: string) =>
    h.app.inject({ method: "GET", url: "/api/me", headers: cookie ? { cookie } : {} });
  const post = (url: string, body: unknown, cookie?: string) =>
    h.app.inject({
      method: "POST",
      url,
      headers: { ...ORIGIN, ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
    });

  it("answers 401 JSON when signed out", async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json<ApiError>()).toEqual({ code: "unauthorized", message: "Please sign in." });
  });

  it("signs up with email + password, sets an httpOnly session cookie, and /api/me answers the user", async () => {
    const res = await post("/api/auth/sign-up/email", {
      email: "Mira@Example.com",
      password: "a long password",
      name: "Mira",
      username: "Mira_Reads",
    });
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(/hearth\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    // The session token never appears in page-readable JSON.
    expect(res.json()).not.toHaveProperty("token");
    const cookie = setCookie.split(";")[0] ?? "";
    const body = (await me(cookie)).json<Me>();
    expect(body).toMatchObject({
      email: "mira@example.com",
      name: "Mira",
      username: "mira_reads",
      role: "free",
      status: "inactive",
      is_guest: false,
      is_admin: false,
      context_tokens: 2048,
    });
    expect(body.permissions).toContain("create_character");
    expect(body.permissions).not.toContain("admin");
  });

  it("signs in again with the password, and refuses a wrong one", async () => {
    const good = await post("/api/auth/sign-in/email", {
      email: "mira@example.com",
      password: "a long password",
    });
    expect(good.statusCode).toBe(200);
    const bad = await post("/api/auth/sign-in/email", {
      email: "mira@example.com",
      password: "not the password",
    });
    expect(bad.statusCode).toBe(401);
  });

  it("refuses a duplicate email and a taken or invalid username without a 500", async () => {
    const dup = await post("/api/auth/sign-up/email", {
      email: "mira@example.com",
      password: "another password",
      name: "Mia",
    });
    expect(dup.statusCode).toBeGreaterThanOrEqual(400);
    expect(dup.statusCode).toBeLessThan(500);
    const badName = await post("/api/auth/sign-up/email", {
      email: "x1@example.com",
      password: "another password",
      name: "Xan",
      username: "no spaces!",
    });
    expect(badName.statusCode).toBe(400);
    expect(badName.body).toContain("Username contain invalid characters");
    const taken = await post("/api/auth/sign-up/email", {
      email: "x2@example.com",
      password: "another password",
      name: "Xan",
      username: "mira_reads",
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain("Username is not available");
  });

  it("checks display names like the client does (3 to 20 characters)", async () => {
    for (const [name, message] of [
      ["  ", "Name can't be empty"],
      ["Al", "Name should be of atleast 3 characters"],
      ["A".repeat(21), "Name should be less then 20 characters"],
    ] as const) {
      const res = await post("/api/auth/sign-up/email", {
        email: `n${name.length}@example.com`,
        password: "correct horse battery",
        name,
      });
      expect(res.statusCode, name).toBe(400);
      expect(res.body).toContain(message);
    }
  });

  it("never answers 500 to malformed sign-up input", async () => {
    for (const payload of ['{"email":', "[]", '{"email":"a@b.c"}', '{"email":5,"password":[],"name":{}}']) {
      const res = await h.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        headers: ORIGIN,
        payload,
      });
      expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload).toBeLessThan(500);
    }
  });

  it("refuses auth calls posted from another site (CSRF origin check)", async () => {
    const user = await h.signUp();
    const evil = { ...ORIGIN, origin: "https://evil.example", cookie: user.cookie };
    const signOut = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: evil,
      payload: "{}",
    });
    expect(signOut.statusCode).toBe(403);
    expect((await me(user.cookie)).statusCode).toBe(200);
    const signIn = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: evil,
      payload: JSON.stringify({ email: user.email, password: "correct horse battery" }),
    });
    expect(signIn.statusCode).toBe(403);
  });

  it("accepts auth calls from a partner origin named in HEARTH_TRUSTED_ORIGINS, and only those", async () => {
    const partnered = await startTestHearth({
      driver,
      env: { HEARTH_TRUSTED_ORIGINS: "https://partner.example" },
    });
    try {
      const user = await partnered.signUp();
      const signIn = (origin: string) =>
        partnered.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          headers: { ...ORIGIN, origin },
          payload: JSON.stringify({ email: user.email, password: "correct horse battery" }),
        });
      expect((await signIn("https://partner.example")).statusCode).toBe(200);
      expect((await signIn("https://evil.example")).statusCode).toBe(403);
    } finally {
      await partnered.stop();
    }
  });

  it("lets a guest in with guest permissions only", async () => {
    const guest = await h.signInAsGuest();
    const body = (await me(guest.cookie)).json<Me>();
    expect(body.is_guest).toBe(true);
    expect(body.email).toBeNull();
    expect(body.permissions).toEqual(["site_access", "view_chat"]);
  });

  it("signs out: the cookie no longer opens a session", async () => {
    const user = await h.signUp();
    expect((await me(user.cookie)).statusCode).toBe(200);
    expect((await post("/api/auth/sign-out", {}, user.cookie)).statusCode).toBe(200);
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("reflects a role change on the next request", async () => {
    const user = await h.signUp();
    await updateUser(h.database.db, user.id, { role: "premium", status: "active" });
    const body = (await me(user.cookie)).json<Me>();
    expect(body.role).toBe("premium");
    expect(body.permissions).toContain("8k_context");
    expect(body.context_tokens).toBe(8192);
  });

  describe("admin user management: allowed for admins only", () => {
    const cases = [
      { who: "signed out", setup: async () => undefined, status: 401 },
      { who: "guest", setup: async () => (await h.signInAsGuest()).cookie, status: 403 },
      ...(["free", "minimal", "basic", "premium"] as const).map((role) => ({
        who: `${role} subscriber`,
        setup: async () => {
          const u = await h.signUp();
          await updateUser(h.database.db, u.id, { role, status: "active" });
          return u.cookie;
        },
        status: 403,
      })),
      {
        who: "restricted user",
        setup: async () => {
          const u = await h.signUp();
          await updateUser(h.database.db, u.id, { restriction: "complete", is_admin: true });
          return u.cookie;
        },
        status: 403,
      },
      {
        who: "admin",
        setup: async () => {
          const u = await h.signUp();
          await updateUser(h.database.db, u.id, { is_admin: true });
          return u.cookie;
        },
        status: 200,
      },
    ];
    for (const c of cases) {
      it(`GET /api/admin/users as ${c.who} → ${c.status}`, async () => {
        const cookie = await c.setup();
        const res = await h.app.inject({
          method: "GET",
          url: "/api/admin/users",
          headers: cookie ? { cookie } : {},
        });
        expect(res.statusCode).toBe(c.status);
        if (c.who === "restricted user") expect(res.json<ApiError>().code).toBe("restricted");
      });
    }

    it("an admin lists, searches, pages and changes users; bad input is a 400", async () => {
      const admin = await h.signUp({ name: "Root" });
      await updateUser(h.database.db, admin.id, { is_admin: true });
      const target = await h.signUp({ name: "Target Person" });
      const headers = { cookie: admin.cookie };

      const search = await h.app.inject({
        method: "GET",
        url: "/api/admin/users?q=target%20person",
        headers,
      });
      expect(search.json<AdminUserList>().users.map((u) => u.id)).toEqual([target.id]);

      const page1 = (
        await h.app.inject({ method: "GET", url: "/api/admin/users?limit=2", headers })
      ).json<AdminUserList>();
      expect(page1.users).toHaveLength(2);
      expect(page1.next_cursor).not.toBeNull();
      const page2 = (
        await h.app.inject({
          method: "GET",
          url: `/api/admin/users?limit=2&cursor=${encodeURIComponent(page1.next_cursor ?? "")}`,
          headers,
        })
      ).json<AdminUserList>();
      expect(page2.users.map((u) => u.id)).not.toContain(page1.users[0]?.id);

      const patch = await h.app.inject({
        method: "PATCH",
        url: `/api/admin/users/${target.id}`,
        headers: { ...headers, "content-type": "application/json" },
        payload: JSON.stringify({ role: "basic", status: "active" }),
      });
      expect(patch.statusCode).toBe(200);
      expect((await me(target.cookie)).json<Me>().permissions).toContain("4k_context");

      for (const [url, payload, status] of [
        [`/api/admin/users/${target.id}`, JSON.stringify({ role: "emperor" }), 400],
        [`/api/admin/users/${target.id}`, JSON.stringify({}), 400],
        [`/api/admin/users/${target.id}`, "{not json", 400],
        ["/api/admin/users/not-a-uuid", JSON.stringify({ role: "free" }), 400],
        ["/api/admin/users/00000000-0000-4000-8000-000000000000", JSON.stringify({ role: "free" }), 404],
      ] as const) {
        const res = await h.app.inject({
          method: "PATCH",
          url,
          headers: { ...headers, "content-type": "application/json" },
          payload,
        });
        expect(res.statusCode, `${url} ${payload}`).toBe(status);
        expect(res.json<ApiError>().code).toBe(status === 404 ? "notFound" : "invalidRequest");
      }
      const badQuery = await h.app.inject({ method: "GET", url: "/api/admin/users?limit=5000", headers });
      expect(badQuery.statusCode).toBe(400);

      // An admin cannot lock themselves out; they may still change their own plan.
      for (const change of [{ is_admin: false }, { restriction: "complete" }]) {
        const self = await h.app.inject({
          method: "PATCH",
          url: `/api/admin/users/${admin.id}`,
          headers: { ...headers, "content-type": "application/json" },
          payload: JSON.stringify(change),
        });
        expect(self.statusCode, JSON.stringify(change)).toBe(403);
      }
      const ownPlan = await h.app.inject({
        method: "PATCH",
        url: `/api/admin/users/${admin.id}`,
        headers: { ...headers, "content-type": "application/json" },
        payload: JSON.stringify({ role: "premium", status: "active" }),
      });
      expect(ownPlan.statusCode).toBe(200);
    });
  });
});

import { randomBytes } from "node:crypto";
import type { ApiError, Me } from "@hearth/contract";
import type { BetterAuthOptions, DBAdapter } from "better-auth";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { withUsernameConflicts } from "./auth-adapter.ts";
import { violates } from "./profile-rules.ts";
import { users } from "./schema.ts";

/**
 * Profile rules (accounts-billing-admin §5) through every path that can write a profile:
 * PATCH /api/users/me, better-auth's sign-up, and better-auth's own update paths (closed).
 */
const BROWSER = {
  origin: "http://localhost:3000",
  host: "localhost:3000",
  "content-type": "application/json",
};
const PASSWORD = "correct horse battery";
const CYRILLIC_ALICE = "\u0430lice"; // "аlice": the first letter is Cyrillic

describe.each(drivers)("profile rules on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(async () => {
    await h.stop();
  });

  const send = (method: "GET" | "POST" | "PATCH", url: string, body?: unknown, cookie?: string) =>
    h.app.inject({
      method,
      url,
      headers: { ...BROWSER, ...(cookie ? { cookie } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const patchMe = (cookie: string, body: unknown) => send("PATCH", "/api/users/me", body, cookie);
  const me = async (cookie: string) => (await send("GET", "/api/me", undefined, cookie)).json<Me>();
  const signUp = (fields: Record<string, unknown>) =>
    send("POST", "/api/auth/sign-up/email", {
      email: `p${randomBytes(5).toString("hex")}@example.com`,
      password: PASSWORD,
      name: "Tester",
      ...fields,
    });
  const fresh = () => `n${randomBytes(4).toString("hex")}`;

  it("changes only the fields sent, in their stored form", async () => {
    const user = await h.signUp({ name: "Mira" });
    const name = fresh();
    const renamed = await patchMe(user.cookie, { username: `  ${name.toUpperCase()} ` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<Me>()).toMatchObject({ username: name, name: "Mira", email: user.email });

    expect((await patchMe(user.cookie, { name: " Mira K " })).json<Me>()).toMatchObject({
      name: "Mira K",
      username: name,
    });
    for (const avatar of ["https://cdn.example.com/a.png", "/api/files/avatars/u1-512.webp", null]) {
      const res = await patchMe(user.cookie, { avatar_url: avatar });
      expect(res.statusCode, String(avatar)).toBe(200);
      expect(res.json<Me>().avatar_url).toBe(avatar);
    }

    const email = `moved${randomBytes(4).toString("hex")}@example.com`;
    const moved = await patchMe(user.cookie, { email: email.toUpperCase() });
    expect(moved.json<Me>().email).toBe(email);
    // The new address signs in; the old one no longer does.
    expect((await send("POST", "/api/auth/sign-in/email", { email, password: PASSWORD })).statusCode).toBe(
      200,
    );
    expect(
      (await send("POST", "/api/auth/sign-in/email", { email: user.email, password: PASSWORD })).statusCode,
    ).toBe(401);
    expect(await me(user.cookie)).toMatchObject({ username: name, name: "Mira K", avatar_url: null, email });
  });

  it("refuses every broken rule with the spec's message, and changes nothing", async () => {
    const user = await h.signUp({ name: "Keeper", username: fresh() });
    const before = await me(user.cookie);
    const other = await h.signUp();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: "" }, "Username can't be empty"],
      [{ username: "ab" }, "Username is too short"],
      [{ username: "a".repeat(21) }, "Username should be less then 20 characters"],
      [{ username: "Bad Name!!" }, "Username contain invalid characters"],
      [{ username: CYRILLIC_ALICE }, "Username contain invalid characters"],
      [{ username: "al.ice" }, "Username contain invalid characters"],
      [{ name: "   " }, "Name can't be empty"],
      [{ name: "Al" }, "Name should be of atleast 3 characters"],
      [{ name: "N".repeat(5000) }, "Name should be less then 20 characters"],
      [{ name: "Evil\u202Eeman" }, "Name can't contain control characters"],
      [
        { avatar_url: "javascript:alert(1)" },
        "Image must be an http(s) address or a file uploaded to this site",
      ],
      [
        { avatar_url: "data:image/svg+xml,<svg onload=alert(1)>" },
        "Image must be an http(s) address or a file uploaded to this site",
      ],
      [
        { avatar_url: "/api/files/../../etc/passwd" },
        "Image must be an http(s) address or a file uploaded to this site",
      ],
      [
        { avatar_url: "//evil.example/a.png" },
        "Image must be an http(s) address or a file uploaded to this site",
      ],
      [
        { avatar_url: "ftp://files.example/a.png" },
        "Image must be an http(s) address or a file uploaded to this site",
      ],
      [{ email: "" }, "Email can not be empty"],
      [{ email: "not-an-address" }, "Please enter a valid email address"],
      [{ email: other.email }, "This email address is already used by another account."],
      [{}, "Nothing to change"],
      [{ image: "https://cdn.example.com/a.png" }, 'Unrecognized key: "image"'],
    ];
    for (const [body, message] of cases) {
      const res = await patchMe(user.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const error = res.json<ApiError>();
      expect(error.code).toBe("invalidRequest");
      expect(error.issues?.[0]?.message ?? error.message, JSON.stringify(body)).toBe(message);
    }
    expect(await me(user.cookie)).toEqual(before);
  });

  it("treats alice, ALICE and full-width ａｌｉｃｅ as one name; a Cyrillic look-alike is refused", async () => {
    const owner = fresh();
    await h.signUp({ username: owner });
    const rival = await h.signUp();
    for (const attempt of [
      owner.toUpperCase(),
      owner.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
    ]) {
      const res = await patchMe(rival.cookie, { username: attempt });
      expect(res.statusCode, attempt).toBe(400);
      expect(res.json<ApiError>().message).toBe("Username is not available");
      const signUpTaken = await signUp({ username: attempt });
      expect(signUpTaken.statusCode, attempt).toBe(400);
      expect(signUpTaken.json<{ message: string }>().message).toBe("Username is not available");
    }
    const lookAlike = await signUp({ username: CYRILLIC_ALICE });
    expect(lookAlike.statusCode).toBe(400);
    expect(lookAlike.json<{ message: string }>().message).toBe("Username contain invalid characters");
    expect((await me(rival.cookie)).username).toBeNull();
  });

  it("settles a race for one username in the database: exactly one of many wins", async () => {
    const wanted = fresh();
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => h.signUp()));
    const results = await Promise.all(people.map((p) => patchMe(p.cookie, { username: wanted })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 400)) {
      expect(r.json<ApiError>().message).toBe("Username is not available");
    }

    const contested = fresh();
    const signUps = await Promise.all([1, 2, 3, 4].map(() => signUp({ username: contested })));
    expect(signUps.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
    for (const r of signUps.filter((x) => x.statusCode === 400)) {
      expect(r.json<{ message: string }>().message).toBe("Username is not available");
    }
  });

  it("maps this driver's unique-index refusal to the spec's message, in and out of a transaction", async () => {
    const taken = fresh();
    await h.signUp({ username: taken });
    const [row] = await h.database.db.select().from(users).where(eq(users.username, taken));
    const error = await h.database.db
      .insert(users)
      .values({
        ...(row as typeof users.$inferSelect),
        id: crypto.randomUUID(),
        email: `${fresh()}@example.com`,
      })
      .catch((e: unknown) => e);
    expect(violates(error, "23505", "users_username_key")).toBe(true);
    expect(violates(error, "23505", "users_email_key")).toBe(false);

    // Two sign-ups racing past the friendly check: the loser's insert meets that same refusal.
    const racing = {
      id: "racing",
      create: async () => Promise.reject(error),
      update: async () => Promise.reject(error),
      updateMany: async () => Promise.reject(new Error("unrelated")),
      transaction: async (callback: (trx: unknown) => Promise<unknown>) => callback(racing),
    } as unknown as DBAdapter<BetterAuthOptions>;
    const adapter = withUsernameConflicts(() => racing)({});
    const insert = { model: "user", data: { username: taken } };
    const refused = {
      statusCode: 400,
      body: expect.objectContaining({ message: "Username is not available" }),
    };
    await expect(adapter.create(insert)).rejects.toMatchObject(refused);
    await expect(adapter.transaction((trx) => trx.create(insert))).rejects.toMatchObject(refused);
    await expect(adapter.update({ model: "user", where: [], update: {} })).rejects.toMatchObject(refused);
    await expect(adapter.updateMany({ model: "user", where: [], update: {} })).rejects.toThrow("unrelated");
  });

  it("GET /api/users/check-username answers isAvailable, for anyone", async () => {
    const owner = fresh();
    const user = await h.signUp({ username: owner });
    const check = async (username: string, cookie?: string) => {
      const res = await send(
        "GET",
        `/api/users/check-username?username=${encodeURIComponent(username)}`,
        undefined,
        cookie,
      );
      expect(res.statusCode, username).toBe(200);
      return res.json<{ isAvailable: boolean }>().isAvailable;
    };
    expect(await check(fresh())).toBe(true);
    expect(await check(owner)).toBe(false);
    expect(await check(owner.toUpperCase())).toBe(false);
    expect(await check(CYRILLIC_ALICE)).toBe(false);
    expect(await check("ab")).toBe(false);
    expect(await check("no spaces")).toBe(false);
    // Keeping one's own name is always allowed.
    expect(await check(owner, user.cookie)).toBe(true);
    expect((await send("GET", "/api/users/check-username")).statusCode).toBe(400);
  });

  it("guests and restricted accounts cannot change a profile", async () => {
    const guest = await h.signInAsGuest();
    const asGuest = await patchMe(guest.cookie, { name: "Sneaky" });
    expect(asGuest.statusCode).toBe(403);
    expect(asGuest.json<ApiError>()).toMatchObject({
      code: "forbidden",
      message: expect.stringContaining("Sign up"),
    });
    expect((await me(guest.cookie)).name).toBe("Guest");

    for (const restriction of ["complete", "temporary"] as const) {
      const name = fresh();
      const user = await h.signUp({ username: name });
      await updateUser(h.database.db, user.id, { restriction });
      const res = await patchMe(user.cookie, { username: fresh() });
      expect(res.statusCode, restriction).toBe(403);
      expect(res.json<ApiError>().code).toBe("restricted");
      const [row] = await h.database.db.select().from(users).where(eq(users.id, user.id));
      expect(row?.username).toBe(name);
    }
    expect((await send("PATCH", "/api/users/me", { name: "Nobody" })).statusCode).toBe(401);
  });

  it("better-auth's update-user and change-email are closed: what they stored before is refused", async () => {
    const owner = fresh();
    await h.signUp({ username: owner });
    const user = await h.signUp({ name: "Plain" });
    const before = await me(user.cookie);
    const bypasses: [string, Record<string, unknown>][] = [
      ["/api/auth/update-user", { username: "Bad Name!!" }],
      ["/api/auth/update-user", { name: "N".repeat(5000) }],
      ["/api/auth/update-user", { username: owner.toUpperCase() }],
      ["/api/auth/update-user", { username: CYRILLIC_ALICE }],
      ["/api/auth/update-user", { image: "javascript:alert(document.cookie)" }],
      ["/api/auth/change-email", { newEmail: "taken-over@example.com" }],
    ];
    for (const [url, body] of bypasses) {
      const res = await send("POST", url, body, user.cookie);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(404);
      expect(res.json<ApiError>()).toMatchObject({
        code: "notFound",
        message: expect.stringContaining("/api/users/me"),
      });
    }
    // Spellings of the path that might slip past the guard reach nothing either.
    for (const url of [
      "/api/auth/update-user/",
      "/api/auth/Update-User",
      "/api/auth//update-user",
      "/api/auth/update%2Duser",
    ]) {
      const res = await send("POST", url, { name: "N".repeat(5000) }, user.cookie);
      expect(res.statusCode, url).toBe(404);
    }
    expect(await me(user.cookie)).toEqual(before);

    // Even called from server code, better-auth's update hook applies the same rules.
    await expect(
      h.auth.api.updateUser({
        headers: new Headers({ cookie: user.cookie }),
        body: { name: "N".repeat(5000) },
      }),
    ).rejects.toMatchObject({ body: { message: "Name should be less then 20 characters" } });
    await expect(
      h.auth.api.updateUser({
        headers: new Headers({ cookie: user.cookie }),
        body: { image: "javascript:alert(1)" },
      }),
    ).rejects.toMatchObject({
      body: { message: "Image must be an http(s) address or a file uploaded to this site" },
    });
    expect(await me(user.cookie)).toEqual(before);
  });

  it("sign-up applies the same rules to username, name and image", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ image: "javascript:alert(1)" }, "Image must be an http(s) address or a file uploaded to this site"],
      [
        { image: "data:text/html,<script>alert(1)</script>" },
        "Image must be an http(s) address or a file uploaded to this site",
      ],
      [{ name: "N".repeat(5000) }, "Name should be less then 20 characters"],
      [{ username: "Bad Name!!" }, "Username contain invalid characters"],
    ];
    for (const [fields, message] of bad) {
      const res = await signUp(fields);
      expect(res.statusCode, JSON.stringify(fields).slice(0, 60)).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    const name = fresh();
    const good = await signUp({
      username: ` ${name.toUpperCase()} `,
      image: "https://cdn.example.com/me.png",
    });
    expect(good.statusCode).toBe(200);
    const cookie = String(good.headers["set-cookie"]).split(";")[0] ?? "";
    expect(await me(cookie)).toMatchObject({ username: name, avatar_url: "https://cdn.example.com/me.png" });
  });

  it("keeps session tokens out of page-readable answers (get-session, list-sessions, sign-in)", async () => {
    const user = await h.signUp();
    const signIn = await send("POST", "/api/auth/sign-in/email", { email: user.email, password: PASSWORD });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.body).not.toMatch(/"token"/);
    const second = String(signIn.headers["set-cookie"]).split(";")[0] ?? "";
    const cookieToken = decodeURIComponent(second.split("=")[1] ?? "").split(".")[0] ?? "";
    expect(cookieToken.length).toBeGreaterThan(10);

    const session = await send("GET", "/api/auth/get-session", undefined, second);
    expect(session.statusCode).toBe(200);
    const body = session.json<{ session: Record<string, unknown>; user: { id: string } }>();
    expect(body.user.id).toBe(user.id);
    expect(body.session).toHaveProperty("userId", user.id);
    expect(body.session).not.toHaveProperty("token");

    const list = await send("GET", "/api/auth/list-sessions", undefined, second);
    expect(list.statusCode).toBe(200);
    const sessions = list.json<Record<string, unknown>[]>();
    expect(sessions).toHaveLength(2);
    for (const s of sessions) expect(s).not.toHaveProperty("token");
    expect(session.body + list.body).not.toContain(cookieToken);
  });
});

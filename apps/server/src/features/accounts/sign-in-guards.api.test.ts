import { randomBytes } from "node:crypto";
import type { ApiError } from "@hearth/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { createHearth } from "../../app.ts";
import { PASSWORD_EASY_TO_GUESS, PASSWORD_TOO_COMMON } from "./passwords.ts";
import { authCounters, verifications } from "./schema.ts";

/**
 * What stops guessing and resetting: password rules on every path that sets one, other sessions
 * ended on a change, sign-in lockouts per account and per address, and the guest allowance.
 */
const BROWSER = {
  origin: "http://localhost:3000",
  host: "localhost:3000",
  "content-type": "application/json",
};
const PASSWORD = "correct horse battery";

describe.each(drivers)("sign-in guards on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_GUEST_SIGNINS_PER_DAY: "2" } });
  });
  afterAll(async () => {
    await h.stop();
  });

  /** Each test signs in from its own address, so address counts never leak between tests. */
  let lastOctet = 10;
  const newAddress = () => `198.51.100.${lastOctet++}`;
  const post = (url: string, body: unknown, opts: { cookie?: string; from?: string } = {}) =>
    h.app.inject({
      method: "POST",
      url,
      headers: { ...BROWSER, ...(opts.cookie ? { cookie: opts.cookie } : {}) },
      payload: JSON.stringify(body),
      ...(opts.from ? { remoteAddress: opts.from } : {}),
    });
  const me = (cookie: string) => h.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    [res.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");
  const signIn = (email: string, password: string, from: string) =>
    post("/api/auth/sign-in/email", { email, password }, { from });
  /** Makes a lock end now, as if its time had passed. */
  const expire = (key: string) =>
    h.database.db
      .update(authCounters)
      .set({ blockedUntil: sql`now() - interval '1 second'` })
      .where(eq(authCounters.key, key));

  it("passwords: at least 10 characters and hard to guess, at sign-up", async () => {
    const cases: [string, string][] = [
      ["nine-char", "Password should be at least 10 characters"],
      ["Password123", PASSWORD_TOO_COMMON],
      ["QWERTYUIOP", PASSWORD_TOO_COMMON],
      ["basketball", `${PASSWORD_EASY_TO_GUESS}: it is a single word. Add a few unrelated words.`],
    ];
    for (const [password, message] of cases) {
      const res = await post("/api/auth/sign-up/email", {
        email: `w${randomBytes(4).toString("hex")}@example.com`,
        password,
        name: "Weak",
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
  });

  it("changing the password refuses weak ones and ends the account's other sessions", async () => {
    const user = await h.signUp();
    const other = cookieOf(await signIn(user.email, PASSWORD, newAddress()));
    expect((await me(other)).statusCode).toBe(200);

    const weak = await post(
      "/api/auth/change-password",
      { currentPassword: PASSWORD, newPassword: "Manchester" },
      { cookie: user.cookie },
    );
    expect(weak.statusCode).toBe(400);
    expect(weak.json<{ message: string }>().message).toBe(PASSWORD_TOO_COMMON);

    // The client asks to keep other sessions; the server ends them anyway.
    const changed = await post(
      "/api/auth/change-password",
      { currentPassword: PASSWORD, newPassword: "a brand new passphrase", revokeOtherSessions: false },
      { cookie: user.cookie },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toMatch(/"token"/);
    expect((await me(other)).statusCode).toBe(401);
    // The device that changed it stays signed in, on the fresh session cookie it was given.
    expect((await me(cookieOf(changed))).statusCode).toBe(200);
    expect((await signIn(user.email, "a brand new passphrase", newAddress())).statusCode).toBe(200);
  });

  it("a password reset meets the same rules and ends every session", async () => {
    const user = await h.signUp();
    const token = randomBytes(12).toString("hex");
    await h.database.db.insert(verifications).values({
      id: crypto.randomUUID(),
      identifier: `reset-password:${token}`,
      value: user.id,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const weak = await post("/api/auth/reset-password", { token, newPassword: "1q2w3e4r5t" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json<{ message: string }>().message).toBe(PASSWORD_TOO_COMMON);
    const short = await post("/api/auth/reset-password", { token, newPassword: "short" });
    expect(short.json<{ message: string }>().message).toBe("Password should be at least 10 characters");

    const reset = await post("/api/auth/reset-password", { token, newPassword: "reset to something long" });
    expect(reset.statusCode).toBe(200);
    expect((await me(user.cookie)).statusCode).toBe(401);
    expect((await signIn(user.email, "reset to something long", newAddress())).statusCode).toBe(200);
  });

  it("signs in from a browser still holding a session that ended (signed out, revoked): the new session's cookie is set", async () => {
    const user = await h.signUp();
    const stale = user.cookie;
    const out = await post("/api/auth/sign-out", {}, { cookie: stale });
    expect(out.statusCode).toBe(200);
    expect((await me(stale)).statusCode).toBe(401);
    // The browser still sends the ended session's cookie (a sign-out in another tab, a revoked
    // session): the sign-in must still leave it signed in.
    const again = await post(
      "/api/auth/sign-in/email",
      { email: user.email, password: PASSWORD },
      { cookie: `${stale}; theme=dark`, from: newAddress() },
    );
    expect(again.statusCode).toBe(200);
    const fresh = cookieOf(again);
    expect(fresh).toMatch(/session_token=[^;\s]+/);
    expect((await me(fresh)).json<{ id: string }>().id).toBe(user.id);
    // A guest's live session still reaches better-auth with the sign-up (nothing to drop).
    const guest = await h.signInAsGuest();
    const upgraded = await post(
      "/api/auth/sign-up/email",
      { email: `g-${randomBytes(4).toString("hex")}@example.com`, password: PASSWORD, name: "Was Guest" },
      { cookie: guest.cookie, from: newAddress() },
    );
    expect(upgraded.statusCode).toBe(200);
    expect((await me(cookieOf(upgraded))).json<{ name: string }>().name).toBe("Was Guest");
  });

  it("locks an account after 5 wrong passwords, with a back-off that doubles; a success clears it", async () => {
    const user = await h.signUp();
    const from = newAddress();
    const key = `signin-account:${user.email}`;
    const fiveWrong = async () => {
      for (let i = 0; i < 5; i++)
        expect((await signIn(user.email, `wrong guess ${i}`, from)).statusCode).toBe(401);
    };

    await fiveWrong();
    // Now even the right password waits, and the answer says for how long.
    const locked = await signIn(user.email.toUpperCase(), PASSWORD, from);
    expect(locked.statusCode).toBe(429);
    expect(locked.json<ApiError>()).toEqual({
      code: "tooManyAttempts",
      message: "Too many failed sign-ins. Please wait 1 minute before trying again.",
    });
    const first = Number(locked.headers["retry-after"]);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(60);
    // The lock is the account's, not the address's: another account signs in from here.
    const neighbour = await h.signUp();
    expect((await signIn(neighbour.email, PASSWORD, from)).statusCode).toBe(200);

    await expire(key);
    await fiveWrong();
    const again = await signIn(user.email, PASSWORD, newAddress());
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(60);
    expect(Number(again.headers["retry-after"])).toBeLessThanOrEqual(120);
    expect(again.json<ApiError>().message).toContain("2 minutes");

    await expire(key);
    expect((await signIn(user.email, PASSWORD, from)).statusCode).toBe(200);
    expect(await h.database.db.select().from(authCounters).where(eq(authCounters.key, key))).toEqual([]);
    expect((await signIn(user.email, "one more wrong", from)).statusCode).toBe(401);
  });

  it("locks an address after 20 failures across accounts; other addresses are unaffected", async () => {
    const user = await h.signUp();
    const from = newAddress();
    for (let i = 0; i < 20; i++) {
      const res = await signIn(`nobody${i}@example.com`, "any password at all", from);
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const blocked = await signIn(user.email, PASSWORD, from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<ApiError>().code).toBe("tooManyAttempts");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(200);
  });

  it("counts in the database, so two server processes on it lock together", async () => {
    const user = await h.signUp();
    const from = newAddress();
    const second = await createHearth(h.config, { database: h.database });
    try {
      const via = (app: typeof h.app, password: string) =>
        app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          headers: BROWSER,
          payload: JSON.stringify({ email: user.email, password }),
          remoteAddress: from,
        });
      for (const app of [h.app, second.app, h.app, second.app, h.app]) {
        expect((await via(app, "wrong again")).statusCode).toBe(401);
      }
      expect((await via(second.app, PASSWORD)).statusCode).toBe(429);
      expect((await via(h.app, PASSWORD)).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });

  it("limits guest sign-ins per address a day, suggesting to sign up; other addresses are unaffected", async () => {
    const from = newAddress();
    const guest = () => post("/api/auth/sign-in/anonymous", {}, { from });
    expect((await guest()).statusCode).toBe(200);
    expect((await guest()).statusCode).toBe(200);
    const refused = await guest();
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ApiError>()).toMatchObject({
      code: "limitReached",
      message: expect.stringContaining("Sign up for a free account"),
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(23 * 3600);
    expect((await post("/api/auth/sign-in/anonymous", {}, { from: newAddress() })).statusCode).toBe(200);

    // A day later the address may start guests again.
    await h.database.db
      .update(authCounters)
      .set({ windowStartedAt: sql`now() - interval '25 hours'` })
      .where(eq(authCounters.key, `guest-signin:${from}`));
    expect((await guest()).statusCode).toBe(200);
  });
});

describe("guest sign-ins without a limit", () => {
  it("HEARTH_GUEST_SIGNINS_PER_DAY=0 lets an address start any number of guests", async () => {
    const h = await startTestHearth({ env: { HEARTH_GUEST_SIGNINS_PER_DAY: "0" } });
    try {
      for (let i = 0; i < 7; i++) expect((await h.signInAsGuest()).cookie).toMatch(/hearth\.session_token=/);
    } finally {
      await h.stop();
    }
  });
});

describe("the sign-up allowance per address", () => {
  it("counts e-mail and partner sign-ups together; refusals and other addresses are unaffected", async () => {
    const h = await startTestHearth({
      env: { HEARTH_SIGNUPS_PER_DAY: "2", HEARTH_EDITION: "partner", HEARTH_PARTNER_KEY: "k".repeat(32) },
    });
    let n = 0;
    const post = (url: string, body: unknown, from: string) =>
      h.app.inject({
        method: "POST",
        url,
        headers: BROWSER,
        payload: JSON.stringify(body),
        remoteAddress: from,
      });
    const emailSignUp = (from: string, password = "correct horse battery") =>
      post(
        "/api/auth/sign-up/email",
        { email: `allow-${n++}@example.com`, password, name: "Newcomer" },
        from,
      );
    try {
      const from = "203.0.113.7";
      // A refused form (a common password) does not use the allowance up.
      expect((await emailSignUp(from, "password123")).statusCode).toBe(400);
      expect((await emailSignUp(from)).statusCode).toBe(200);
      expect(
        (await post("/api/external/signup", { name: "Casey", username: "casey_allow" }, from)).statusCode,
      ).toBe(201);
      const refused = await emailSignUp(from);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<ApiError>()).toMatchObject({
        code: "limitReached",
        message: expect.stringContaining("Too many new accounts"),
      });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(23 * 3600);
      const external = await post("/api/external/signup", { name: "Dana", username: "dana_allow" }, from);
      expect(external.statusCode).toBe(429);
      expect((await emailSignUp("203.0.113.8")).statusCode).toBe(200);
    } finally {
      await h.stop();
    }
  });
});

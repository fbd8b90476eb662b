import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApiError } from "@hearth/contract";
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, drivers, type TestDatabase } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { linkIn, startSmtp } from "../../../test/smtp.ts";
import { createHearth, type Hearth } from "../../app.ts";
import { authCounters, verifications } from "./schema.ts";
import { UNLOCK_LINK_INVALID } from "./unlock-routes.ts";

/**
 * Sign-in throttling under attack: every body encoding better-auth reads is counted, a parallel
 * burst checks at most the lock's threshold of passwords (on one process or two on one
 * database), the site's own rate, resets and password changes counted the same way, the mailed
 * unlock link, and NUL characters in better-auth's bodies refused.
 */
const PASSWORD = "correct horse battery";
const THRESHOLD = 5;
const SITE_LIMIT = 1000;
const BROWSER = { origin: "http://localhost:3000", host: "localhost:3000" };

type Injector = Hearth["app"];

describe.each(drivers)("sign-in throttle on %s", (driver) => {
  let h: TestHearth;
  /** A second Hearth on the same database: its own process's pool on PostgreSQL. */
  let second: { app: Injector; stop(): Promise<void> };
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let shared: TestDatabase | null = null;
  const dirs: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    const env = {
      SMTP_URL: smtp.url,
      HEARTH_MAIL_FROM: "Hearth <hearth@example.com>",
      HEARTH_SIGNINS_PER_MINUTE: String(SITE_LIMIT),
      HEARTH_DB_POOL: "8",
    };
    if (driver === "postgres") {
      // Two installs on one PostgreSQL database, each opening its own pool as `hearth start` would.
      shared = await createTestDatabase("postgres");
      const install = () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-throttle-"));
        dirs.push(dataDir);
        return { dataDir, databaseUrl: shared?.url ?? "" };
      };
      h = await startTestHearth({ install: install(), env });
      const other = await startTestHearth({ install: install(), env });
      second = { app: other.app, stop: () => other.stop() };
    } else {
      // PGlite lives in one process: the second Hearth shares its database object.
      h = await startTestHearth({ driver, env });
      const other = await createHearth(h.config, { database: h.database });
      second = { app: other.app, stop: () => other.close() };
    }
  });
  afterAll(async () => {
    await second?.stop();
    await h?.stop();
    await shared?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await smtp?.close();
  });

  /** Each test comes from its own addresses, so address counts never leak between tests. */
  let lastOctet = 10;
  const newAddress = () => `203.0.113.${lastOctet++}`;
  const jsonPost = (
    url: string,
    body: unknown,
    from: string,
    opts: { cookie?: string; app?: Injector } = {},
  ) =>
    (opts.app ?? h.app).inject({
      method: "POST",
      url,
      headers: {
        ...BROWSER,
        "content-type": "application/json",
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
      },
      payload: JSON.stringify(body),
      remoteAddress: from,
    });
  const formPost = (url: string, form: string, from: string, type = "application/x-www-form-urlencoded") =>
    h.app.inject({
      method: "POST",
      url,
      headers: { ...BROWSER, "content-type": type },
      payload: form,
      remoteAddress: from,
    });
  const signIn = (email: string, password: string, from: string, app?: Injector) =>
    jsonPost("/api/auth/sign-in/email", { email, password }, from, { app });
  const statuses = (answers: { statusCode: number }[]) => {
    const count: Record<number, number> = {};
    for (const a of answers) count[a.statusCode] = (count[a.statusCode] ?? 0) + 1;
    return count;
  };
  /** The next mail to this address (earlier tests' locks mailed their own accounts). */
  const mailTo = async (address: string) => {
    for (;;) {
      const mail = await smtp.next();
      if (mail.to.includes(address)) return mail;
    }
  };
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    [res.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");

  it("counts form-encoded guesses like JSON ones, and refuses encodings it does not read", async () => {
    const user = await h.signUp();
    const from = newAddress();
    const form = (password: string) =>
      formPost(
        "/api/auth/sign-in/email",
        new URLSearchParams({ email: user.email, password }).toString(),
        from,
      );
    // A form is read, not ignored: the right password signs in through it.
    expect((await form(PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < THRESHOLD; i++) expect((await form(`wrong form guess ${i}`)).statusCode).toBe(401);
    const locked = await form(PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json<ApiError>().code).toBe("tooManyAttempts");
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(429);
    // A repeated field: the e-mail counted is the one better-auth checks.
    const twice = `email=someone-else%40example.com&email=${encodeURIComponent(user.email)}&password=x`;
    expect((await formPost("/api/auth/sign-in/email", twice, newAddress())).statusCode).toBe(429);

    for (const type of ["multipart/form-data; boundary=x", "text/plain", "application/octet-stream"]) {
      const refused = await formPost("/api/auth/sign-in/email", `email=${user.email}&password=x`, from, type);
      expect(refused.statusCode, type).toBe(415);
      expect(refused.json<ApiError>().code).toBe("unsupportedMediaType");
    }
  });

  it("a parallel burst on one account checks at most the threshold of passwords", async () => {
    const user = await h.signUp();
    const from = newAddress();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => signIn(user.email, `parallel guess ${i}`, from)),
    );
    const took = Math.round(performance.now() - started);
    const count = statuses(answers);
    console.info(`120 parallel wrong sign-ins on ${driver}: ${JSON.stringify(count)} in ${took} ms`);
    expect(count[401] ?? 0).toBeLessThanOrEqual(THRESHOLD);
    expect((count[401] ?? 0) + (count[429] ?? 0)).toBe(120);
    // The right password waits too, from any address.
    expect((await signIn(user.email, PASSWORD, from)).statusCode).toBe(429);
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(429);
  });

  it("two Hearths on one database splitting a burst still check at most the threshold", async () => {
    const user = await h.signUp();
    const from = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        signIn(user.email, `split guess ${i}`, from, i % 2 === 0 ? h.app : second.app),
      ),
    );
    const count = statuses(answers);
    expect(count[401] ?? 0).toBeLessThanOrEqual(THRESHOLD);
    expect((count[401] ?? 0) + (count[429] ?? 0)).toBe(80);
    expect((await signIn(user.email, PASSWORD, newAddress(), second.app)).statusCode).toBe(429);
  });

  it("spellings of the sign-in path and other sign-in methods cannot walk around the lock", async () => {
    const user = await h.signUp();
    const from = newAddress();
    for (let i = 0; i < THRESHOLD; i++)
      expect((await signIn(user.email, `wrong ${i}`, from)).statusCode).toBe(401);
    for (const url of [
      "/api/auth/sign-in/email/",
      "/api/auth/Sign-In/Email",
      "/api/auth/sign-in/%65mail",
      "/api/auth/sign-in/email?x=1",
    ]) {
      const res = await jsonPost(url, { email: user.email, password: PASSWORD }, newAddress());
      expect([404, 429], url).toContain(res.statusCode);
    }
    const other = await jsonPost(
      "/api/auth/sign-in/username",
      { username: "anyone", password: PASSWORD },
      newAddress(),
    );
    expect(other.statusCode).toBe(404);
    expect(other.json<ApiError>().code).toBe("notFound");
  });

  it("limits the whole site's sign-ins per minute, whatever the address", async () => {
    const user = await h.signUp();
    const site = eq(authCounters.key, "signin-site");
    const before = (await h.database.db.select().from(authCounters).where(site))[0]?.count ?? 0;
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(200);
    const [row] = await h.database.db.select().from(authCounters).where(site);
    expect(row?.count).toBe(before + 1);

    // As if the minute's other sign-ins had come from all over: one left.
    await h.database.db
      .update(authCounters)
      .set({ count: SITE_LIMIT - 1 })
      .where(site);
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(200);
    const refused = await signIn(user.email, PASSWORD, newAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ApiError>()).toMatchObject({ code: "rateLimited" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    // A refusal by the site's rate checked no password, so it leaves the address's count as it was.
    const refusedFrom = newAddress();
    expect((await signIn(user.email, "a wrong one", refusedFrom, second.app)).statusCode).toBe(429);
    const [address] = await h.database.db
      .select()
      .from(authCounters)
      .where(eq(authCounters.key, `signin-address:${refusedFrom}`));
    expect(address?.count ?? 0).toBe(0);

    // The next minute starts anew.
    await h.database.db
      .update(authCounters)
      .set({ windowStartedAt: sql`now() - interval '61 seconds'` })
      .where(site);
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(200);
  });

  it("counts reset requests per account and per address, and wrong reset tokens per address", async () => {
    const from = newAddress();
    const ask = (email: string, at = from) => jsonPost("/api/auth/request-password-reset", { email }, at);
    // An unknown address counts too, so the answers never tell which accounts exist.
    for (let i = 0; i < THRESHOLD; i++) expect((await ask("nobody@example.com")).statusCode).toBe(200);
    const refused = await ask("nobody@example.com", newAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ApiError>().code).toBe("tooManyAttempts");

    const many = newAddress();
    for (let i = 0; i < 20; i++) expect((await ask(`someone${i}@example.com`, many)).statusCode).toBe(200);
    expect((await ask("someone-else@example.com", many)).statusCode).toBe(429);

    const guesser = newAddress();
    const tries = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        jsonPost(
          "/api/auth/reset-password",
          { token: `guess${i}`, newPassword: "violet tractor harbour lemonade" },
          guesser,
        ),
      ),
    );
    const count = statuses(tries);
    expect(count[400] ?? 0).toBeLessThanOrEqual(20);
    expect((count[400] ?? 0) + (count[429] ?? 0)).toBe(40);
  });

  it("counts wrong current passwords at change-password with the account's sign-ins", async () => {
    const user = await h.signUp();
    const from = newAddress();
    const change = (current: string) =>
      jsonPost(
        "/api/users/me/password",
        { current_password: current, new_password: "violet tractor harbour lemonade" },
        from,
        { cookie: user.cookie },
      );
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => change(`not it ${i}`)));
    const count = statuses(answers);
    expect(count[400] ?? 0).toBeLessThanOrEqual(THRESHOLD);
    expect((count[400] ?? 0) + (count[429] ?? 0)).toBe(30);
    expect((await change(PASSWORD)).statusCode).toBe(429);
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(429);
    // better-auth's own routes that check the current password count the same.
    for (const url of ["/api/auth/change-password", "/api/auth/verify-password"]) {
      const res = await jsonPost(
        url,
        { currentPassword: PASSWORD, password: PASSWORD, newPassword: "violet tractor harbour lemonade" },
        newAddress(),
        { cookie: user.cookie },
      );
      expect(res.statusCode, url).toBe(429);
    }
  });

  it("mails the owner one unlock link per lock; following it clears the lock", async () => {
    const user = await h.signUp();
    const from = newAddress();
    for (let i = 0; i < THRESHOLD; i++)
      expect((await signIn(user.email, `wrong ${i}`, from)).statusCode).toBe(401);
    // More refused guesses while it is locked send nothing more.
    for (let i = 0; i < 3; i++) expect((await signIn(user.email, `more ${i}`, from)).statusCode).toBe(429);
    const link = linkIn((await mailTo(user.email)).body, "unlock-sign-in");
    const issued = await h.database.db
      .select()
      .from(verifications)
      .where(and(like(verifications.identifier, "unlock-sign-in:%"), eq(verifications.value, user.email)));
    expect(issued).toHaveLength(1);
    expect(link.origin).toBe("http://localhost:3000");
    const token = link.searchParams.get("token") ?? "";

    const unlock = (t: string) => jsonPost("/api/account/unlock-sign-in", { token: t }, newAddress());
    expect((await unlock(token)).statusCode).toBe(204);
    const signedIn = await signIn(user.email, PASSWORD, from);
    expect(signedIn.statusCode).toBe(200);
    expect(cookieOf(signedIn)).toMatch(/session_token=/);
    // The link works once, and a made-up one not at all.
    for (const t of [token, "made-up-token"]) {
      const again = await unlock(t);
      expect(again.statusCode).toBe(400);
      expect(again.json<ApiError>()).toEqual({ code: "invalidRequest", message: UNLOCK_LINK_INVALID });
    }
    // The lock after the unlock mails a fresh link.
    for (let i = 0; i < THRESHOLD; i++)
      expect((await signIn(user.email, `again ${i}`, from)).statusCode).toBe(401);
    const next = linkIn((await mailTo(user.email)).body, "unlock-sign-in");
    expect(next.searchParams.get("token")).not.toBe(token);
  });

  it("a password reset by a valid link ends the account's lock", async () => {
    const user = await h.signUp();
    const from = newAddress();
    for (let i = 0; i < THRESHOLD; i++)
      expect((await signIn(user.email, `wrong ${i}`, from)).statusCode).toBe(401);
    const token = randomBytes(12).toString("hex");
    await h.database.db.insert(verifications).values({
      id: crypto.randomUUID(),
      identifier: `reset-password:${token}`,
      value: user.id,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const fresh = "violet tractor harbour lemonade";
    expect((await signIn(user.email, PASSWORD, newAddress())).statusCode).toBe(429);
    expect(
      (await jsonPost("/api/auth/reset-password", { token, newPassword: fresh }, newAddress())).statusCode,
    ).toBe(200);
    expect((await signIn(user.email, fresh, from)).statusCode).toBe(200);
  });

  it("refuses a NUL in a better-auth body with 400, and repairs lone surrogates", async () => {
    for (const [url, body] of [
      ["/api/auth/sign-in/email", { email: "nul\u0000@example.com", password: PASSWORD }],
      ["/api/auth/sign-up/email", { email: "x@example.com", password: PASSWORD, name: "a\u0000b" }],
      ["/api/auth/request-password-reset", { email: "x@example.com", redirectTo: "/\u0000" }],
    ] as const) {
      const res = await jsonPost(url, body, newAddress());
      expect(res.statusCode, url).toBe(400);
      expect(res.json<ApiError>().code).toBe("invalidRequest");
    }
    const form = await formPost(
      "/api/auth/sign-in/email",
      "email=a%00b%40example.com&password=x",
      newAddress(),
    );
    expect(form.statusCode).toBe(400);
    expect(form.json<ApiError>().code).toBe("invalidRequest");

    const email = `surrogate${lastOctet}@example.com`;
    const made = await jsonPost(
      "/api/auth/sign-up/email",
      { email, password: PASSWORD, name: "Half \ud800 made" },
      newAddress(),
    );
    expect(made.statusCode).toBe(200);
    expect(made.json<{ user: { name: string } }>().user.name).toBe("Half \ufffd made");
  });
});

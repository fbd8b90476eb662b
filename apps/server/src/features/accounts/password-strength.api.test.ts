import { randomBytes } from "node:crypto";
import type { ApiError } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { PROBE_ACCOUNT, STRONG_PASSWORDS, WEAK_PASSWORDS } from "./password-test-support.ts";
import { PASSWORD_EASY_TO_GUESS } from "./passwords.ts";
import { verifications } from "./schema.ts";

/**
 * Every path that sets a password (sign-up, the profile's change, better-auth's change, a reset
 * link) refuses the same twenty guessable passwords with a sentence that says why, judged with
 * the account's own e-mail and names, and accepts strong ones.
 */
const BROWSER = {
  origin: "http://localhost:3000",
  host: "localhost:3000",
  "content-type": "application/json",
};
const EASY = new RegExp(`^${PASSWORD_EASY_TO_GUESS}: `);

describe.each(drivers)("password strength on %s", (driver) => {
  let h: TestHearth;
  let cookie = "";
  let current = STRONG_PASSWORDS[0] as string;
  let userId = "";
  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(async () => {
    await h.stop();
  });

  const post = (url: string, body: unknown, withCookie = "") =>
    h.app.inject({
      method: "POST",
      url,
      headers: { ...BROWSER, ...(withCookie ? { cookie: withCookie } : {}) },
      payload: JSON.stringify(body),
    });
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    [res.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");
  const signIn = (password: string) =>
    post("/api/auth/sign-in/email", { email: PROBE_ACCOUNT.email, password });

  it("sign-up refuses each weak password, the account's own e-mail included, and takes a strong one", async () => {
    for (const password of WEAK_PASSWORDS) {
      const res = await post("/api/auth/sign-up/email", { ...PROBE_ACCOUNT, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json<{ message: string }>().message, password).toMatch(EASY);
    }
    const made = await post("/api/auth/sign-up/email", { ...PROBE_ACCOUNT, password: current });
    expect(made.statusCode, made.body).toBe(200);
    cookie = cookieOf(made);
    userId = made.json<{ user: { id: string } }>().user.id;
  });

  it("the profile's password change refuses each weak password on the new_password field", async () => {
    for (const password of WEAK_PASSWORDS) {
      const res = await post(
        "/api/users/me/password",
        { current_password: current, new_password: password },
        cookie,
      );
      expect(res.statusCode, password).toBe(400);
      const body = res.json<ApiError>();
      expect(body.code).toBe("invalidRequest");
      expect(body.message, password).toMatch(EASY);
      expect(body.issues?.[0]?.path).toBe("new_password");
    }
    const next = STRONG_PASSWORDS[1] as string;
    const ok = await post(
      "/api/users/me/password",
      { current_password: current, new_password: next },
      cookie,
    );
    expect(ok.statusCode, ok.body).toBe(204);
    cookie = cookieOf(ok);
    current = next;
  });

  it("better-auth's change-password knows the signed-in account: its e-mail is refused too", async () => {
    for (const password of WEAK_PASSWORDS) {
      const res = await post(
        "/api/auth/change-password",
        { currentPassword: current, newPassword: password },
        cookie,
      );
      expect(res.statusCode, password).toBe(400);
      expect(res.json<{ message: string }>().message, password).toMatch(EASY);
    }
    expect((await signIn(current)).statusCode).toBe(200);
  });

  it("a reset link's new password is judged with the link's account", async () => {
    const token = randomBytes(12).toString("hex");
    await h.database.db.insert(verifications).values({
      id: crypto.randomUUID(),
      identifier: `reset-password:${token}`,
      value: userId,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    for (const password of WEAK_PASSWORDS) {
      const res = await post("/api/auth/reset-password", { token, newPassword: password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json<{ message: string }>().message, password).toMatch(EASY);
    }
    const own = await post("/api/auth/reset-password", { token, newPassword: PROBE_ACCOUNT.email });
    expect(own.json<{ message: string }>().message).toContain("your e-mail address, name or username");
    // The refusals left the link usable.
    const next = STRONG_PASSWORDS[2] as string;
    const reset = await post("/api/auth/reset-password", { token, newPassword: next });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signIn(next)).statusCode).toBe(200);
  });
});

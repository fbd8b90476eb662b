import type { ActiveSessionList, ApiError } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { WRONG_PASSWORD } from "./password-routes.ts";
import { PASSWORD_TOO_COMMON } from "./passwords.ts";

/** Profile settings: the active sessions (list, sign out one, sign out the others) and the password change. */
const PASSWORD = "correct horse battery";

describe.each(drivers)("sessions and password on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(async () => {
    await h.stop();
  });

  const call = (
    method: "GET" | "POST" | "DELETE",
    url: string,
    cookie?: string,
    body?: unknown,
    agent = "TestBrowser/1.0",
  ) =>
    h.app.inject({
      method,
      url,
      headers: {
        "user-agent": agent,
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  /** A second device: signs in with the password under another user agent. */
  const signInAgain = async (email: string, agent: string, password = PASSWORD) => {
    const res = await call("POST", "/api/auth/sign-in/email", undefined, { email, password }, agent);
    expect(res.statusCode).toBe(200);
    return [res.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");
  };
  const list = async (cookie: string) =>
    (await call("GET", "/api/users/me/sessions", cookie)).json<ActiveSessionList>().sessions;
  const signedIn = async (cookie: string) => (await call("GET", "/api/me", cookie)).statusCode === 200;

  it("lists the account's sessions with device, address and the current one marked, never tokens", async () => {
    const u = await h.signUp();
    const phone = await signInAgain(u.email, "PhoneBrowser/2.0");
    const other = await h.signUp();
    const res = await call("GET", "/api/users/me/sessions", phone);
    expect(res.statusCode).toBe(200);
    const sessions = res.json<ActiveSessionList>().sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toMatchObject([{ user_agent: "PhoneBrowser/2.0" }]);
    for (const s of sessions) {
      expect(Number.isNaN(Date.parse(s.last_active_at))).toBe(false);
      expect(s).toHaveProperty("ip_address");
    }
    // The cookie's token appears nowhere in the answer.
    const token = decodeURIComponent(phone.split("=")[1] ?? "").split(".")[0] ?? "";
    expect(token.length).toBeGreaterThan(10);
    expect(res.body).not.toContain(token);
    // Another account's sessions are not listed.
    expect((await list(other.cookie)).map((s) => s.id)).not.toContain(sessions[0]?.id);
    expect((await call("GET", "/api/users/me/sessions")).statusCode).toBe(401);
  });

  it("signs out one session by id, and only the account's own", async () => {
    const u = await h.signUp();
    const phone = await signInAgain(u.email, "PhoneBrowser/2.0");
    const phoneId = (await list(phone)).find((s) => s.current)?.id as string;
    const stranger = await h.signUp();
    const foreign = await call(
      "DELETE",
      `/api/users/me/sessions/${encodeURIComponent(phoneId)}`,
      stranger.cookie,
    );
    expect(foreign.statusCode).toBe(404);
    expect(await signedIn(phone)).toBe(true);

    expect(
      (await call("DELETE", `/api/users/me/sessions/${encodeURIComponent(phoneId)}`, u.cookie)).statusCode,
    ).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(u.cookie)).toBe(true);
    expect(
      (await call("DELETE", `/api/users/me/sessions/${encodeURIComponent(phoneId)}`, u.cookie)).statusCode,
    ).toBe(404);
  });

  it("signs out every other session and keeps this one", async () => {
    const u = await h.signUp();
    const a = await signInAgain(u.email, "A/1");
    const b = await signInAgain(u.email, "B/1");
    const res = await call("POST", "/api/users/me/sessions/revoke-others", u.cookie);
    expect(res.json()).toEqual({ revoked: 2 });
    expect(await signedIn(a)).toBe(false);
    expect(await signedIn(b)).toBe(false);
    expect(await signedIn(u.cookie)).toBe(true);
    expect(await list(u.cookie)).toHaveLength(1);
  });

  it("changes the password: current one required, passwords.ts rules, the other sessions signed out", async () => {
    const u = await h.signUp();
    const other = await signInAgain(u.email, "Other/1");
    const change = (cookie: string, current_password: string, new_password: string) =>
      call("POST", "/api/users/me/password", cookie, { current_password, new_password });

    const wrong = await change(u.cookie, "not the password", "a brand new passphrase");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ApiError>()).toMatchObject({
      message: WRONG_PASSWORD,
      issues: [{ path: "current_password" }],
    });
    const short = await change(u.cookie, PASSWORD, "short");
    expect(short.json<ApiError>().issues?.[0]?.path).toBe("new_password");
    const common = await change(u.cookie, PASSWORD, "qwertyuiop");
    expect(common.json<ApiError>().message).toBe(PASSWORD_TOO_COMMON);
    expect(await signedIn(other)).toBe(true);

    const ok = await change(u.cookie, PASSWORD, "a brand new passphrase");
    expect(ok.statusCode).toBe(204);
    const fresh = [ok.headers["set-cookie"]]
      .flat()
      .map((c) => String(c).split(";")[0])
      .join("; ");
    expect(await signedIn(fresh)).toBe(true);
    expect(await signedIn(other)).toBe(false);
    const oldSignIn = await call("POST", "/api/auth/sign-in/email", undefined, {
      email: u.email,
      password: PASSWORD,
    });
    expect(oldSignIn.statusCode).toBe(401);
    await signInAgain(u.email, "New/1", "a brand new passphrase");
  });

  it("guests, restricted accounts and the signed-out cannot change a password; paid tiers and admins can", async () => {
    const body = { current_password: PASSWORD, new_password: "another fine passphrase" };
    const guest = await h.signInAsGuest();
    expect((await call("POST", "/api/users/me/password", guest.cookie, body)).statusCode).toBe(403);
    expect((await call("POST", "/api/users/me/password", undefined, body)).statusCode).toBe(401);
    const restricted = await h.signUp();
    await updateUser(h.database.db, restricted.id, { restriction: "complete" });
    expect((await call("POST", "/api/users/me/password", restricted.cookie, body)).statusCode).toBe(403);
    for (const change of [{ role: "basic", status: "active" }, { is_admin: true }] as const) {
      const u = await h.signUp();
      await updateUser(h.database.db, u.id, change);
      expect((await call("POST", "/api/users/me/password", u.cookie, body)).statusCode).toBe(204);
    }
  });
});

import type { ApiError, Me } from "@hearth/contract";
import { NAME_INVISIBLE } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { createAuth } from "./auth.ts";
import { signPartnerToken } from "./partner.ts";
import { RESERVED_NAME_SAMPLES } from "./reserved-name-samples.ts";
import { USERNAME_RESERVED } from "./reserved-names.ts";
import { users } from "./schema.ts";

/**
 * Reserved usernames (Hearth's own, staff-sounding, the brand) and their look-alikes are refused
 * wherever a username is set: sign-up, `hearth user create`, PATCH /api/users/me, onboarding,
 * the availability check, partner mode's external sign-up and token login. Names with nothing
 * visible are refused as display names and persona names.
 */
const BROWSER = {
  origin: "http://localhost:3000",
  host: "localhost:3000",
  "content-type": "application/json",
};
const PASSWORD = "correct horse battery";
const INVISIBLE = "\u200b\u200b\u200b";
let n = 0;
const email = () => `reserved-${n++}-${Date.now()}@example.com`;

describe.each(drivers)("reserved names on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_BRAND_NAME: "Ember Chat" } });
  });
  afterAll(async () => {
    await h.stop();
  });

  const send = (method: "POST" | "PATCH", url: string, body: unknown, cookie?: string) =>
    h.app.inject({
      method,
      url,
      headers: { ...BROWSER, ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
    });
  const signUp = (username: string, name = "Newcomer") =>
    send("POST", "/api/auth/sign-up/email", { email: email(), password: PASSWORD, name, username });
  const patchMe = (cookie: string, body: unknown) => send("PATCH", "/api/users/me", body, cookie);
  const setUsername = (id: string, username: string | null) =>
    h.database.db.update(users).set({ username }).where(eq(users.id, id));

  it("sign-up refuses every reserved name and look-alike, and the brand, saying why", async () => {
    for (const username of [...RESERVED_NAME_SAMPLES, "Ember_Chat", "emberchat"]) {
      const res = await signUp(username);
      expect(res.statusCode, username).toBe(400);
      expect(res.json<{ message: string }>().message, username).toBe(USERNAME_RESERVED);
    }
    expect((await signUp("ember_fan")).statusCode).toBe(200);
  });

  it("`hearth user create` (better-auth's sign-up called directly) refuses them too", async () => {
    const auth = createAuth({ ...h.config, firstUserAdmin: false }, h.database.db);
    for (const username of ["ADMIN", "deleted-user", "ｓｕｐｐｏｒｔ"]) {
      await expect(
        auth.api.signUpEmail({ body: { email: email(), password: PASSWORD, name: "Operator", username } }),
        username,
      ).rejects.toThrow(USERNAME_RESERVED);
    }
  });

  it("a rename to a reserved name is refused on the username field; one held from before may stay", async () => {
    const member = await h.signUp({ username: `member${n++}` });
    for (const username of RESERVED_NAME_SAMPLES.filter((u) => /^[a-z0-9_-]+$/i.test(u.normalize("NFKC")))) {
      const res = await patchMe(member.cookie, { username });
      expect(res.statusCode, username).toBe(400);
      expect(res.json<ApiError>()).toMatchObject({
        code: "invalidRequest",
        message: USERNAME_RESERVED,
        issues: [{ path: "username", message: USERNAME_RESERVED }],
      });
    }
    // Letters from another script and dots are outside the username alphabet: refused as such.
    for (const username of ["\u0430dmin", "deleted.user"]) {
      const res = await patchMe(member.cookie, { username });
      expect(res.statusCode, username).toBe(400);
      expect(res.json<ApiError>().issues?.[0]?.path).toBe("username");
    }

    // Taken before the name was reserved: saving the profile with it unchanged still works.
    await setUsername(member.id, "admin");
    const kept = await patchMe(member.cookie, { username: "admin", name: "Still Me" });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Me>()).toMatchObject({ username: "admin", name: "Still Me" });
  });

  it("the availability check answers false for a reserved name", async () => {
    for (const username of ["Deleted_User", "m0d", "ember-chat", "\u0430dmin"]) {
      const res = await h.app.inject({
        method: "GET",
        url: `/api/users/check-username?username=${encodeURIComponent(username)}`,
      });
      expect(res.json(), username).toEqual({ isAvailable: false });
    }
  });

  it("onboarding refuses a reserved username", async () => {
    const member = await h.signUp({ username: `later${n++}` });
    await setUsername(member.id, null);
    const complete = (username: string) =>
      send(
        "POST",
        "/api/users/me/onboarding/complete",
        { username, name: "Newcomer", adult: true, terms: true, guidelines: true },
        member.cookie,
      );
    for (const username of ["Deleted_User", "de1eted_user", "official"]) {
      const res = await complete(username);
      expect(res.statusCode, username).toBe(400);
      expect(res.json<ApiError>().issues).toEqual([{ path: "username", message: USERNAME_RESERVED }]);
    }
    expect((await complete(`chosen${n++}`)).statusCode).toBe(200);
  });

  it("refuses display names and persona names with nothing visible", async () => {
    for (const name of [INVISIBLE, "\u0301\u0301\u0301", "\u3164\u3164\u3164"]) {
      const res = await signUp(`vis${n++}`, name);
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(NAME_INVISIBLE);
    }
    const member = await h.signUp({ username: `seen${n++}` });
    const renamed = await patchMe(member.cookie, { name: INVISIBLE });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json<ApiError>().issues?.[0]).toEqual({ path: "name", message: NAME_INVISIBLE });
    const persona = await send("POST", "/api/personas", { name: INVISIBLE }, member.cookie);
    expect(persona.statusCode).toBe(400);
    expect(persona.json<ApiError>().issues?.[0]?.message).toBe(NAME_INVISIBLE);
  });
});

const KEY = "partner-key-for-tests-0123456789abcdef";

describe.each(drivers)("reserved names in partner mode on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_EDITION: "partner", HEARTH_PARTNER_KEY: KEY } });
  });
  afterAll(async () => {
    await h.stop();
  });
  const post = (url: string, body: unknown) =>
    h.app.inject({ method: "POST", url, headers: BROWSER, payload: JSON.stringify(body) });

  it("external sign-up refuses a reserved username", async () => {
    for (const username of ["Support", "st_aff", "hearth"]) {
      const res = await post("/api/external/signup", { name: "Casey", username });
      expect(res.statusCode, username).toBe(409);
      expect(res.json<ApiError>().message).toBe(USERNAME_RESERVED);
    }
  });

  it("a partner's reserved username and blank name are not taken over: onboarding asks for a username", async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = signPartnerToken({ sub: "p-reserved", name: INVISIBLE, username: "Moderator", exp }, KEY);
    const res = await post("/api/partner/session", { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>()).toMatchObject({ username: null, name: "Member" });
  });
});

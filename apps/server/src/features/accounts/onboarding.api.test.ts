import {
  AGE_REQUIRED_MESSAGE,
  type ApiError,
  GUIDELINES_REQUIRED_MESSAGE,
  type Me,
  type OnboardingState,
  SIGN_UP_USERNAME_SHORT,
  TERMS_REQUIRED_MESSAGE,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { users } from "./schema.ts";

/** Onboarding (accounts-billing-admin §2.2, §4, §5): saved per user, resumed elsewhere, the §5 rules on submit. */
describe.each(drivers)("onboarding on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  /** A member who signed up without a username (as every account made in the UI once did). */
  const unnamed = async (): Promise<Person> => {
    const u = await h.signUp({ name: "Newcomer" });
    return { role: "free", id: u.id, cookie: u.cookie };
  };
  /** The same account signed in again: a second device with its own session. */
  const secondSession = async (who: Person): Promise<Person> => {
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(eq(users.id, who.id ?? ""));
    const res = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      payload: JSON.stringify({ email: row?.email, password: "correct horse battery" }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const set = res.headers["set-cookie"];
    const cookie = (Array.isArray(set) ? set : [set ?? ""]).map((c) => c.split(";")[0]).join("; ");
    expect(cookie).not.toBe(who.cookie);
    return { ...who, cookie };
  };
  const complete = (who: Person, body: Record<string, unknown>) =>
    a.post(
      "/api/users/me/onboarding/complete",
      { username: "newcomer", name: "Newcomer", adult: true, terms: true, guidelines: true, ...body },
      who,
    );
  /** The field's message as the form shows it (the top-level message names the field too). */
  const message = (res: { json: <T>() => T }) => {
    const error = res.json<ApiError>();
    return error.issues?.[0]?.message ?? error.message;
  };

  it("requires onboarding of an account without a username, and starts at welcome", async () => {
    const who = await unnamed();
    const state = (await a.get("/api/users/me/onboarding", who)).json<OnboardingState>();
    expect(state).toEqual({
      step: "welcome",
      username: "",
      name: "",
      email: "",
      guidelines: false,
      required: true,
    });
    const named = await personAs(h, "free");
    const done = (await a.get("/api/users/me/onboarding", named)).json<OnboardingState>();
    expect(done.required).toBe(false);
    expect(done.step).toBe("done");
  });

  it("saves the step and the draft, and a second session resumes there", async () => {
    const who = await unnamed();
    const saved = await a.put(
      "/api/users/me/onboarding",
      { step: "guidelines", username: "Half_Typed", name: "Ha" },
      who,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const other = await secondSession(who);
    const resumed = (await a.get("/api/users/me/onboarding", other)).json<OnboardingState>();
    expect(resumed).toMatchObject({
      step: "guidelines",
      username: "Half_Typed",
      name: "Ha",
      guidelines: false,
    });
    // A later save keeps what it does not send.
    await a.put("/api/users/me/onboarding", { step: "submit", guidelines: true }, other);
    const back = (await a.get("/api/users/me/onboarding", who)).json<OnboardingState>();
    expect(back).toMatchObject({ step: "submit", username: "Half_Typed", name: "Ha", guidelines: true });
  });

  it("refuses a submit without each consent, with the spec's messages", async () => {
    const who = await unnamed();
    expect(message(await complete(who, { adult: false }))).toBe(AGE_REQUIRED_MESSAGE);
    expect(message(await complete(who, { terms: false }))).toBe(TERMS_REQUIRED_MESSAGE);
    expect(message(await complete(who, { guidelines: false }))).toBe(GUIDELINES_REQUIRED_MESSAGE);
    const res = await complete(who, { adult: undefined });
    expect(res.statusCode).toBe(400);
  });

  it.each([
    ["", "Username can't be empty"],
    ["ab", "Username is too short"],
    ["a".repeat(21), "Username should be less then 20 characters"],
    ["bad name!", "Username contain invalid characters"],
  ])("refuses the username %j: %s", async (username, expected) => {
    const res = await complete(await unnamed(), { username });
    expect(res.statusCode).toBe(400);
    expect(message(res)).toBe(expected);
  });

  it.each([
    ["", "Name can't be empty"],
    ["Al", "Name should be of atleast 3 characters"],
    ["N".repeat(21), "Name should be less then 20 characters"],
  ])("refuses the name %j: %s", async (name, expected) => {
    const res = await complete(await unnamed(), { name });
    expect(res.statusCode).toBe(400);
    expect(message(res)).toBe(expected);
  });

  it("sets username (lowercased) and name, records the consents, and is done everywhere", async () => {
    const who = await unnamed();
    await a.put("/api/users/me/onboarding", { step: "submit", username: "Mira_Fan" }, who);
    const res = await complete(who, { username: "Mira_Fan", name: "Mira Fan" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>()).toMatchObject({ username: "mira_fan", name: "Mira Fan" });
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(eq(users.id, who.id ?? ""));
    expect(row?.termsAcceptedAt).toBeInstanceOf(Date);
    expect(row?.onboardedAt).toBeInstanceOf(Date);
    expect(row?.onboarding).toBeNull();
    const state = (await a.get("/api/users/me/onboarding", who)).json<OnboardingState>();
    expect(state).toMatchObject({ step: "done", required: false });
    // A second device submitting afterwards finds it done, and cannot rename through onboarding.
    const again = await complete(who, { username: "another_name" });
    expect(again.statusCode).toBe(409);
    expect((await a.put("/api/users/me/onboarding", { step: "welcome" }, who)).statusCode).toBe(409);
  });

  it("refuses a username someone holds, whatever its case", async () => {
    await complete(await unnamed(), { username: "taken_one" });
    const res = await complete(await unnamed(), { username: "TAKEN_ONE" });
    expect(res.statusCode).toBe(400);
    expect(message(res)).toBe("Username is not available");
    const check = await a.get("/api/users/check-username?username=Taken_One");
    expect(check.json()).toEqual({ isAvailable: false });
  });

  it.each<[Role, number]>([
    ["signed out", 401],
    ["guest", 403],
    ["restricted", 403],
  ])("refuses onboarding to %s", async (role, status) => {
    const who = await personAs(h, role);
    expect((await a.put("/api/users/me/onboarding", { step: "guidelines" }, who)).statusCode).toBe(status);
    expect((await complete(who, {})).statusCode).toBe(role === "restricted" ? 403 : status);
  });

  it.each<Role>(["free", "premium", "admin", "limited"])(
    "lets a %s account without a username onboard",
    async (role) => {
      const who = await personAs(h, role);
      await h.database.db
        .update(users)
        .set({ username: null })
        .where(eq(users.id, who.id ?? ""));
      const name = `r_${role}_${who.id?.slice(0, 6)}`;
      const res = await complete(who, { username: name });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Me>().username).toBe(name);
    },
  );

  describe("the original sign-up (§5: at least 4 characters)", () => {
    const signUp = (username: string | undefined, name = "Signer") =>
      h.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        payload: JSON.stringify({
          email: `s${Math.random().toString(36).slice(2)}@example.com`,
          password: "correct horse battery",
          name,
          ...(username !== undefined && { username }),
        }),
      });

    it.each([
      ["abc", SIGN_UP_USERNAME_SHORT],
      ["bad name", "Username contain invalid characters"],
      ["a".repeat(21), "Username should be less then 20 characters"],
    ])("refuses the username %j", async (username, expected) => {
      const res = await signUp(username);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(expected);
    });

    it("refuses a short name and takes a four-character username, lowercased", async () => {
      const short = await signUp("good_one", "Al");
      expect(short.statusCode).toBe(400);
      expect(short.json<{ message: string }>().message).toBe("Name should be of atleast 3 characters");
      const ok = await signUp("ABCD");
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<{ user: { username: string } }>().user.username).toBe("abcd");
    });
  });
});

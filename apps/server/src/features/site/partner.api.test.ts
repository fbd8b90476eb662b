import type { ApiError, Me, SiteConfig } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { signPartnerToken } from "../accounts/index.ts";
import { users } from "../accounts/schema.ts";
import { api } from "../characters/test-support.ts";

const KEY = "partner-key-for-tests-0123456789abcdef";
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** Partner mode: token login (valid, expired, forged, wrong key) and external sign-up. */
describe.each(drivers)("partner mode on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: {
        HEARTH_EDITION: "partner",
        HEARTH_PARTNER_KEY: KEY,
        HEARTH_PARTNER_LOGOUT_URL: "https://partner.example/logout",
      },
    });
    a = api(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  const login = (token: string) => a.post("/api/partner/session", { token });
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    ([res.headers["set-cookie"]].flat() as string[]).map((c) => c.split(";")[0]).join("; ");

  it("says partner mode and its logout address in the site configuration", async () => {
    const site = (await a.get("/api/site")).json<SiteConfig>();
    expect(site.partner).toEqual({ enabled: true, logout_url: "https://partner.example/logout" });
    expect(site.nsfw_forced).toBe(true);
  });

  it("signs a valid token's user in, creating the account once", async () => {
    const token = signPartnerToken(
      { sub: "p-100", name: "Robin", username: "robin_p", exp: inAnHour() },
      KEY,
    );
    const res = await login(token);
    expect(res.statusCode, res.body).toBe(200);
    const me = res.json<Me>();
    expect(me.name).toBe("Robin");
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/hearth\.session_token=/);
    // The cookie is an ordinary session: /api/me answers the same account.
    const again = await a.get("/api/me", { role: "free", id: me.id, cookie });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<Me>().id).toBe(me.id);
    const [row] = await h.database.db.select().from(users).where(eq(users.id, me.id));
    expect(row?.partnerId).toBe("p-100");
    expect(row?.username).toBe("robin_p");
    expect(row?.showNsfw).toBe(true);
    // A second login is the same account, not a new one.
    const second = await login(signPartnerToken({ sub: "p-100", name: "Robin", exp: inAnHour() }, KEY));
    expect(second.json<Me>().id).toBe(me.id);
    expect(await h.database.db.select().from(users).where(eq(users.partnerId, "p-100"))).toHaveLength(1);
  });

  it("refuses an expired token", async () => {
    const past = Math.floor(Date.now() / 1000) - 1;
    const res = await login(signPartnerToken({ sub: "p-200", name: "Late", exp: past }, KEY));
    expect(res.statusCode).toBe(401);
    expect(res.json<ApiError>().message).toMatch(/expired/);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses a forged token: changed claims, another key, no signature, garbage", async () => {
    const good = signPartnerToken({ sub: "p-300", name: "Eve", exp: inAnHour() }, KEY);
    const [, signature] = good.split(".");
    const claims = Buffer.from(JSON.stringify({ sub: "p-100", name: "Eve", exp: inAnHour() })).toString(
      "base64url",
    );
    const forged = [
      `${claims}.${signature}`,
      signPartnerToken({ sub: "p-300", name: "Eve", exp: inAnHour() }, "another-key-of-enough-length-000000"),
      claims,
      `${claims}.`,
      "not a token",
      `${good}.extra`,
    ];
    for (const token of forged) {
      const res = await login(token);
      expect(res.statusCode, token).toBe(401);
      expect(res.headers["set-cookie"], token).toBeUndefined();
    }
    expect(await h.database.db.select().from(users).where(eq(users.partnerId, "p-300"))).toHaveLength(0);
  });

  it("leaves a taken username for onboarding instead of failing the login", async () => {
    await h.signUp({ username: "takenname" });
    const res = await login(
      signPartnerToken({ sub: "p-400", name: "Twin", username: "takenname", exp: inAnHour() }, KEY),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>().username).toBeNull();
  });

  it("creates an external user under the sign-up rules and signs it in", async () => {
    const res = await a.post("/api/external/signup", { name: "Casey", username: "Casey_X" });
    expect(res.statusCode, res.body).toBe(201);
    const me = res.json<Me>();
    expect(me.username).toBe("casey_x");
    const cookie = cookieOf(res);
    expect((await a.get("/api/me", { role: "free", id: me.id, cookie })).json<Me>().id).toBe(me.id);

    const refused: [Record<string, string>, string][] = [
      [{ name: "Cas", username: "casey_y" }, "Name should be of atleast 4 characters"],
      [{ name: "Casey", username: "cas" }, "Username is too short, it should be at least 4 characters long."],
      [{ name: "Casey", username: "casey.y" }, "Username contain invalid characters"],
      [{ name: "Casey", username: "" }, "Username can't be empty"],
    ];
    for (const [body, message] of refused) {
      const r = await a.post("/api/external/signup", body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.body).toContain(message);
    }
    const taken = await a.post("/api/external/signup", { name: "Other", username: "CASEY_X" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ApiError>().message).toBe("Username is not available");
  });
});

describe("partner mode without a key", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ env: { HEARTH_EDITION: "partner" } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it("refuses every token", async () => {
    const token = signPartnerToken({ sub: "p-1", name: "Robin", exp: inAnHour() }, KEY);
    const res = await api(h).post("/api/partner/session", { token });
    expect(res.statusCode).toBe(401);
  });
});

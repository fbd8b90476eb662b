import {
  type ApiError,
  type Me,
  NO_ACTIVE_PLEDGE,
  PLEDGE_LINK_ERROR,
  type PledgeAuthorization,
  type PledgeLinkResult,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { type PatreonStandin, standinEnv, startPatreonStandin } from "../../../test/patreon-standin.ts";
import { pledgeLinks } from "../billing/schema.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";

/**
 * Pledge linking (issue 13 item 8) against the local Patreon stand-in: the authorize address,
 * the return with a code, the tier an active pledge maps to, no pledge, a failed token exchange,
 * a state that is not the member's, and a paid subscription whose tier the pledge leaves alone.
 */
describe.each(drivers)("pledge linking on %s", (driver) => {
  let standin: PatreonStandin;
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let admin: Person;
  let patronIds = 5000;

  beforeAll(async () => {
    standin = await startPatreonStandin();
    h = await startTestHearth({ driver, env: standinEnv(standin) });
    a = api(h);
    admin = await personAs(h, "admin");
  });
  afterAll(async () => {
    await h?.stop();
    await standin?.stop();
  });
  beforeEach(() => {
    standin.failTokenExchange = false;
    patronIds += 1;
    standin.patron = { id: String(patronIds), pledge: null };
  });

  /** Sends `who` to the stand-in and back: answers the code and state the browser would bring. */
  async function authorize(who: Person) {
    const res = await a.get("/api/link/patreon", who);
    expect(res.statusCode, res.body).toBe(200);
    const { authorize_url } = res.json<PledgeAuthorization>();
    const back = await fetch(authorize_url, { redirect: "manual" });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get("location") ?? "");
    return {
      location,
      code: location.searchParams.get("code") ?? "",
      state: location.searchParams.get("state") ?? "",
    };
  }
  const finish = (who: Person, code: string, state: string) =>
    a.get(`/api/link/patreon/oauth?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`, who);
  async function link(who: Person): Promise<PledgeLinkResult> {
    const { code, state } = await authorize(who);
    const res = await finish(who, code, state);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PledgeLinkResult>();
  }
  const me = async (who: Person) => (await a.get("/api/me", who)).json<Me>();
  const linkRow = async (who: Person) =>
    (
      await h.database.db
        .select()
        .from(pledgeLinks)
        .where(eq(pledgeLinks.userId, who.id ?? ""))
    )[0];

  it("sends the member to Patreon with a state and its way back to the linking page", async () => {
    const member = await personAs(h, "free");
    const res = await a.get("/api/link/patreon", member);
    const answer = res.json<PledgeAuthorization>();
    expect(answer).toMatchObject({ service: "patreon", name: "Patreon" });
    const url = new URL(answer.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${standin.url}/oauth2/authorize`);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("client_id")).toBe(standin.clientId);
    expect(url.searchParams.get("scope")).toBe("identity");
    expect(url.searchParams.get("redirect_uri")).toMatch(/^http:\/\/localhost(:\d+)?\/link\/patreon$/);
    expect(url.searchParams.get("state")?.length).toBeGreaterThan(20);
  });

  it("links an active pledge and grants the tier its amount reaches", async () => {
    const member = await personAs(h, "free");
    standin.patron.pledge = { amountCents: 1500, tierTitle: "Supporter" };
    const result = await link(member);
    expect(result).toMatchObject({ status: "success", role: "basic", role_applied: true, name: "Patreon" });
    expect(result.message).toContain("True Supporter");
    const after = await me(member);
    expect([after.role, after.status]).toEqual(["basic", "active"]);
    expect(after.permissions).toContain("4k_context");
    expect(await linkRow(member)).toMatchObject({
      service: "patreon",
      externalUserId: standin.patron.id,
      role: "basic",
    });

    // The thank-you page reads the same result by its transient id; another member cannot.
    // It is a path segment: fastify's limit for one is 100 characters.
    expect(result.transient_id.length).toBeLessThanOrEqual(100);
    const again = await a.get(`/api/link/patreon/${result.transient_id}`, member);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<PledgeLinkResult>()).toMatchObject({ status: "success", role: "basic" });
    const other = await personAs(h, "free");
    expect((await a.get(`/api/link/patreon/${result.transient_id}`, other)).statusCode).toBe(404);
    const forged = `${result.transient_id.split(".")[0]}.AAAA`;
    expect((await a.get(`/api/link/patreon/${forged}`, member)).statusCode).toBe(404);

    // A bigger pledge later moves the member up.
    standin.patron.pledge = { amountCents: 3000 };
    expect(await link(member)).toMatchObject({ status: "success", role: "premium" });
    expect((await me(member)).role).toBe("premium");
  });

  it("answers invalid_pledge without an active pledge, and takes back what a pledge gave", async () => {
    const member = await personAs(h, "free");
    const none = await link(member);
    expect(none).toMatchObject({ status: "invalid_pledge", message: NO_ACTIVE_PLEDGE, role: null });
    expect((await me(member)).role).toBe("free");
    expect(await linkRow(member)).toBeUndefined();

    // A declined pledge still shows an amount; it grants nothing. Neither does one below the tiers.
    standin.patron.pledge = { amountCents: 2500, status: "declined_patron" };
    expect((await link(member)).status).toBe("invalid_pledge");
    standin.patron.pledge = { amountCents: 300 };
    const small = await link(member);
    expect(small.status).toBe("invalid_pledge");
    expect(small.message).toContain("$5.00");

    // Linked at minimal, then the pledge ends: the next linking puts the account back to free.
    standin.patron.pledge = { amountCents: 500 };
    expect((await link(member)).role).toBe("minimal");
    expect((await me(member)).role).toBe("minimal");
    standin.patron.pledge = null;
    expect((await link(member)).status).toBe("invalid_pledge");
    expect((await me(member)).role).toBe("free");
    expect(await linkRow(member)).toMatchObject({ role: null, externalUserId: standin.patron.id });
  });

  it("answers error when Patreon refuses the code, and changes nothing", async () => {
    const member = await personAs(h, "free");
    standin.patron.pledge = { amountCents: 2500 };
    const { code, state } = await authorize(member);
    standin.failTokenExchange = true;
    const res = await finish(member, code, state);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<PledgeLinkResult>();
    expect(result).toMatchObject({ status: "error", message: PLEDGE_LINK_ERROR, role: null });
    expect((await me(member)).role).toBe("free");
    expect(await linkRow(member)).toBeUndefined();
    // A code Patreon never issued fails the same way.
    standin.failTokenExchange = false;
    expect((await finish(member, "not-a-code", (await authorize(member)).state)).json()).toMatchObject({
      status: "error",
    });
  });

  it("refuses a state that is not this member's own", async () => {
    const member = await personAs(h, "free");
    const intruder = await personAs(h, "free");
    standin.patron.pledge = { amountCents: 2500 };
    const { code, state } = await authorize(intruder);
    // The intruder's authorization cannot be finished in the member's session (login CSRF).
    const stolen = await finish(member, code, state);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json<ApiError>().message).toMatch(/Start linking again/);
    const [body, signature] = state.split(".");
    const tampered = `${Buffer.from(JSON.stringify({ u: member.id })).toString("base64url")}.${signature}`;
    for (const bad of [tampered, `${body}.${"A".repeat(signature?.length ?? 10)}`, "garbage", `${state}.x`]) {
      expect((await finish(member, code, bad)).statusCode, bad).toBe(400);
    }
    expect((await me(member)).role).toBe("free");
    // Nothing was traded: the intruder can still finish their own.
    expect((await finish(intruder, code, state)).json<PledgeLinkResult>().role).toBe("premium");
  });

  it("records the pledge of a paid subscriber but leaves the subscription's tier", async () => {
    const member = await personAs(h, "free");
    const grant = await a.post(
      "/api/admin/subscriptions",
      { user_id: member.id, plan_id: "premium-1m", months: 1 },
      admin,
    );
    expect(grant.statusCode, grant.body).toBe(201);
    standin.patron.pledge = { amountCents: 500 };
    const result = await link(member);
    expect(result).toMatchObject({ status: "success", role: "minimal", role_applied: false });
    expect(result.message).toMatch(/subscription/);
    const after = await me(member);
    expect([after.role, after.status]).toEqual(["premium", "active"]);
    expect(await linkRow(member)).toMatchObject({ role: "minimal" });
    // Nor does losing the pledge touch it.
    standin.patron.pledge = null;
    await link(member);
    expect((await me(member)).role).toBe("premium");
  });

  it("links one Patreon account to one member only", async () => {
    const first = await personAs(h, "free");
    const second = await personAs(h, "free");
    standin.patron.pledge = { amountCents: 1500 };
    expect((await link(first)).status).toBe("success");
    const result = await link(second);
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/already linked to another member/);
    expect((await me(second)).role).toBe("free");
  });

  it("is for members only: signed out, guests and restricted accounts are refused", async () => {
    expect((await a.get("/api/link/patreon")).statusCode).toBe(401);
    const guest = await personAs(h, "guest");
    expect((await a.get("/api/link/patreon", guest)).statusCode).toBe(403);
    const restricted = await personAs(h, "restricted");
    for (const url of [
      "/api/link/patreon",
      "/api/link/patreon/oauth?code=a&state=b",
      "/api/link/patreon/a.b",
    ]) {
      const res = await a.get(url, restricted);
      expect(res.statusCode, url).toBe(403);
      expect(res.json<ApiError>().code, url).toBe("restricted");
    }
    const member = await personAs(h, "free");
    expect((await a.get("/api/link/kofi", member)).statusCode).toBe(404);
    expect((await a.get("/api/link/patreon/oauth?state=x", member)).statusCode).toBe(400);
  });
});

describe("pledge linking without a Patreon client", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("says the service is not set up", async () => {
    const member = await personAs(h, "free");
    const res = await api(h).get("/api/link/patreon", member);
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiError>().message).toMatch(/not set up/);
  });
});

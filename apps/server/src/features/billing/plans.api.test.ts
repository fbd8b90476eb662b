import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PlanList } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { ANNUAL_TAGLINE, readPlanCatalog } from "./plans.ts";

/** GET /api/plans (accounts-billing-admin §1, §3, §9): the spec's plans, or the operator's file. */
describe("plans", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("answers the spec's tiers and prices to anyone, with per-day cost and the annual tagline", async () => {
    const res = await h.app.inject({ method: "GET", url: "/api/plans" });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<PlanList>();
    const byId = Object.fromEntries(list.plans.map((p) => [p.plan_id, p]));
    expect(list.default_plan_id).toBe("basic-1m");
    expect(byId["basic-1m"]).toMatchObject({
      role: "basic",
      title: "True Supporter",
      period: "monthly",
      currency: "usd",
      price: 15,
      price_per_day: 0.5,
      annual_tagline: null,
    });
    expect(byId["basic-1y"]).toMatchObject({
      period: "annual",
      price: 149.99,
      annual_tagline: ANNUAL_TAGLINE,
    });
    expect(byId["premium-1m"]).toMatchObject({ title: "I'm All In", price: 24.99, price_per_day: 0.83 });
    expect(byId["premium-1y"]?.price).toBe(249.99);
    expect(byId["minimal-1y"]).toMatchObject({ title: "Get a Taste", price: 49.99 });
    expect(byId["minimal-1m"]?.features.map((f) => f.title)).toContain("Skip the waiting line");
    // Every id with 1y is annual, every other monthly (§4).
    for (const p of list.plans) expect(p.period).toBe(p.plan_id.includes("1y") ? "annual" : "monthly");
  });
});

describe("the operator's plans.json", () => {
  const dirWith = (content: unknown) => {
    const dir = mkdtempSync(path.join(tmpdir(), "hearth-plans-"));
    writeFileSync(path.join(dir, "plans.json"), JSON.stringify(content));
    return dir;
  };

  it("replaces the defaults, the period following the id", () => {
    const catalog = readPlanCatalog(
      dirWith({
        plans: [
          { plan_id: "fan-1m", role: "basic", currency: "eur", amount: 900 },
          { plan_id: "fan-1y", role: "basic", currency: "eur", amount: 9000 },
        ],
        default_plan_id: "fan-1y",
      }),
    );
    expect(catalog.defaultPlanId).toBe("fan-1y");
    expect(catalog.find("fan-1y")).toMatchObject({ period: "annual", currency: "eur", amount: 9000 });
    expect(catalog.find("basic-1m")).toBeUndefined();
  });

  it("stops the start with the reason when broken", () => {
    const notJson = mkdtempSync(path.join(tmpdir(), "hearth-plans-"));
    writeFileSync(path.join(notJson, "plans.json"), "{ plans: oops");
    expect(() => readPlanCatalog(notJson)).toThrow(/plans.json: not JSON/);
    expect(() => readPlanCatalog(dirWith({ plans: [] }))).toThrow(/plans.json: plans/);
    expect(() =>
      readPlanCatalog(
        dirWith({ plans: [{ plan_id: "a-1m", role: "basic", amount: 100 }], default_plan_id: "missing" }),
      ),
    ).toThrow(/default_plan_id missing is not a plan/);
    expect(() =>
      readPlanCatalog(
        dirWith({
          plans: [
            { plan_id: "a-1m", role: "basic", amount: 100 },
            { plan_id: "a-1m", role: "premium", amount: 200 },
          ],
        }),
      ),
    ).toThrow(/unique/);
    // A price past what an order's int4 totals can hold stops the start, not a checkout.
    for (const amount of [100_000_001, 2 ** 31, 2 ** 53])
      expect(() => readPlanCatalog(dirWith({ plans: [{ plan_id: "a-1m", role: "basic", amount }] }))).toThrow(
        /plans.json: plans.0.amount/,
      );
  });

  it("without a file, answers the defaults", () => {
    const catalog = readPlanCatalog(mkdtempSync(path.join(tmpdir(), "hearth-plans-")));
    expect(catalog.plans.map((p) => p.planId)).toEqual([
      "minimal-1m",
      "minimal-1y",
      "basic-1m",
      "basic-1y",
      "premium-1m",
      "premium-1y",
    ]);
  });
});

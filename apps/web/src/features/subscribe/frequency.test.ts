import type { Plan } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import {
  checkoutHref,
  comparisonRows,
  formatPrice,
  highlightedRole,
  parseFrequency,
  periodOf,
  plansFor,
  subscribeSearch,
  tierIncludes,
} from "./frequency.ts";

const make = (plan_id: string, role: Plan["role"], price: number, features: string[] = []): Plan => {
  const period = plan_id.includes("1y") ? "annual" : "monthly";
  return {
    plan_id,
    role,
    title: role,
    description: "",
    period,
    currency: "usd",
    price,
    price_per_day: Math.round(((period === "annual" ? price / 12 : price) / 30) * 100) / 100,
    features: features.map((title) => ({ title, new: false })),
    annual_tagline: period === "annual" ? "2 months free / 16% Off" : null,
  };
};

// Out of tier order on purpose: the page orders them.
const PLANS = [
  make("premium-1y", "premium", 249.99),
  make("basic-1m", "basic", 15),
  make("premium-1m", "premium", 24.99),
  make("minimal-1m", "minimal", 4.99),
  make("basic-1y", "basic", 149.99),
  make("minimal-1y", "minimal", 49.99),
];

describe("the subscribe page's frequency (§2.2)", () => {
  it("is monthly by default and for anything but annually", () => {
    expect(parseFrequency(undefined)).toBe("monthly");
    expect(parseFrequency("monthly")).toBe("monthly");
    expect(parseFrequency("annually")).toBe("annually");
    expect(parseFrequency("yearly")).toBe("monthly");
    expect(parseFrequency("ANNUALLY")).toBe("monthly");
  });

  it("maps to the plans' period", () => {
    expect(periodOf("monthly")).toBe("monthly");
    expect(periodOf("annually")).toBe("annual");
  });

  it("shows that frequency's three tiers, lowest first", () => {
    expect(plansFor(PLANS, "monthly").map((p) => p.plan_id)).toEqual([
      "minimal-1m",
      "basic-1m",
      "premium-1m",
    ]);
    expect(plansFor(PLANS, "annually").map((p) => p.plan_id)).toEqual([
      "minimal-1y",
      "basic-1y",
      "premium-1y",
    ]);
  });

  it("leaves out a tier the operator doesn't offer at that frequency", () => {
    const noMinimalYear = PLANS.filter((p) => p.plan_id !== "minimal-1y");
    expect(plansFor(noMinimalYear, "annually").map((p) => p.role)).toEqual(["basic", "premium"]);
  });
});

describe("?plan= preselection", () => {
  it("keeps a known tier and a coupon, and drops anything else", () => {
    expect(subscribeSearch({ plan: "premium", coupon: " SPRING " })).toEqual({
      plan: "premium",
      coupon: "SPRING",
    });
    expect(subscribeSearch({ plan: "gold", coupon: "" })).toEqual({});
    expect(subscribeSearch({ plan: 3 })).toEqual({});
    expect(subscribeSearch({ coupon: 2024 })).toEqual({ coupon: "2024" });
  });

  it("highlights the asked tier, else the default plan's tier at either frequency", () => {
    const monthly = plansFor(PLANS, "monthly");
    const annual = plansFor(PLANS, "annually");
    expect(highlightedRole(monthly, "premium", PLANS, "basic-1m")).toBe("premium");
    expect(highlightedRole(monthly, null, PLANS, "basic-1m")).toBe("basic");
    expect(highlightedRole(annual, null, PLANS, "basic-1m")).toBe("basic");
    expect(highlightedRole(annual, "minimal", PLANS, "basic-1m")).toBe("minimal");
    // A tier this frequency doesn't offer falls back to the default's.
    expect(highlightedRole(annual.slice(1), "minimal", PLANS, "basic-1m")).toBe("basic");
  });
});

describe("checkout links", () => {
  it("carry the plan id and the coupon when one came in", () => {
    expect(checkoutHref("basic-1m")).toBe("/checkout?plan_id=basic-1m");
    expect(checkoutHref("premium-1y", "SPRING")).toBe("/checkout?plan_id=premium-1y&coupon=SPRING");
  });

  it("show prices in the plan's currency", () => {
    expect(formatPrice(15, "usd")).toBe("$15.00");
    expect(formatPrice(149.99, "usd")).toBe("$149.99");
    expect(formatPrice(9, "eur")).toBe("€9.00");
  });
});

describe("plan comparison rows", () => {
  it("list each tier's own features once, higher tiers including the lower ones", () => {
    const plans = [
      make("minimal-1m", "minimal", 4.99, ["Skip the waiting line", "Personas"]),
      make("basic-1m", "basic", 15, ["Everything in Get a Taste", "4K context memory"]),
      make("premium-1m", "premium", 24.99, ["Everything in True Supporter", "Priority queue", "Personas"]),
    ];
    const rows = comparisonRows(plans);
    expect(rows.map((r) => [r.title, r.from])).toEqual([
      ["Skip the waiting line", "minimal"],
      ["Personas", "minimal"],
      ["4K context memory", "basic"],
      ["Priority queue", "premium"],
    ]);
    expect(tierIncludes("premium", "basic")).toBe(true);
    expect(tierIncludes("minimal", "basic")).toBe(false);
    expect(tierIncludes("basic", "basic")).toBe(true);
  });
});

import type { SaleOffer } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { claimHref, giftCards, money, reveal } from "./gift-cards.ts";

const offer = (role: SaleOffer["role"], period: SaleOffer["period"], price: number): SaleOffer => ({
  offer_id: `birthday-${role}-${period === "annual" ? "1y" : "1m"}`,
  plan_id: `${role}-${period === "annual" ? "1y" : "1m"}`,
  role,
  title: role,
  period,
  currency: "usd",
  regular_price: price * 2,
  price,
  percent_off: 50,
});

describe("sale gift cards", () => {
  it("makes one card per tier, cheapest first, with its yearly offer", () => {
    const cards = giftCards([
      offer("premium", "monthly", 10.99),
      offer("basic", "annual", 125.99),
      offer("minimal", "monthly", 0.99),
      offer("basic", "monthly", 7.5),
      offer("premium", "annual", 209.99),
    ]);
    expect(cards.map((c) => [c.role, c.monthly.price, c.annual?.price ?? null])).toEqual([
      ["minimal", 0.99, null],
      ["basic", 7.5, 125.99],
      ["premium", 10.99, 209.99],
    ]);
    // A tier offered only yearly still gets its card.
    expect(giftCards([offer("basic", "annual", 125.99)]).map((c) => [c.monthly.period, c.annual])).toEqual([
      ["annual", null],
    ]);
  });

  it("reveals a card on its first click only, with confetti that once", () => {
    const start = new Set<SaleOffer["role"]>();
    const first = reveal(start, "basic");
    expect(first.confetti).toBe(true);
    expect([...first.state]).toEqual(["basic"]);
    expect(start.size).toBe(0);
    const again = reveal(first.state, "basic");
    expect(again).toEqual({ state: first.state, confetti: false });
    const other = reveal(again.state, "premium");
    expect(other.confetti).toBe(true);
    expect([...other.state].sort()).toEqual(["basic", "premium"]);
  });

  it("sends Claim Offer Now to checkout with the plan and the offer", () => {
    expect(claimHref({ plan_id: "basic-1m", offer_id: "birthday-basic-1m" })).toBe(
      "/checkout?plan_id=basic-1m&offer_id=birthday-basic-1m",
    );
    expect(money(7.5, "usd")).toBe("$7.50");
    expect(money(209.99, "usd")).toBe("$209.99");
  });
});

import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { activeOffer } from "./sale.ts";
import { datesLabel, defaultWindow, saleFile, saleIsOn, saleSettingsOf, toSale } from "./sale-settings.ts";

const config = (sale: boolean) =>
  loadConfig({
    HEARTH_DATA_DIR: "/tmp/hearth-sale-unit",
    HEARTH_SALE: String(sale),
    HEARTH_BRAND_NAME: "Ember",
  });

describe("the birthday sale's settings", () => {
  const now = new Date("2031-11-24T12:00:00Z");

  it("offers the spec's prices by default: 80, 50 and 56% off a month, 30% off a year", () => {
    const sale = toSale(saleSettingsOf(config(true), undefined), now);
    expect(sale.title).toBe("Ember's Birthday Celebration");
    expect(sale.offers.map((o) => [o.offer_id, o.plan_id, o.regular_price, o.price, o.percent_off])).toEqual([
      ["birthday-minimal-1m", "minimal-1m", 4.99, 0.99, 80],
      ["birthday-minimal-1y", "minimal-1y", 59.88, 41.99, 30],
      ["birthday-basic-1m", "basic-1m", 15, 7.5, 50],
      ["birthday-basic-1y", "basic-1y", 180, 125.99, 30],
      ["birthday-premium-1m", "premium-1m", 24.99, 10.99, 56],
      ["birthday-premium-1y", "premium-1y", 299.88, 209.99, 30],
    ]);
    expect(sale.offers.map((o) => o.period)).toEqual([
      "monthly",
      "annual",
      "monthly",
      "annual",
      "monthly",
      "annual",
    ]);
    expect(sale.offers[2]?.title).toBe("True Supporter");
    expect(sale.note).toMatch(/first month only/);
  });

  it("without dates, runs while switched on and counts down to the next June 3", () => {
    const settings = saleSettingsOf(config(true), undefined);
    expect(saleIsOn(settings, now)).toBe(true);
    expect(saleIsOn(saleSettingsOf(config(false), undefined), now)).toBe(false);
    const sale = toSale(settings, now);
    expect(sale.dates_label).toBe("MAY 30 - JUNE 3");
    expect(sale.ends_at).toBe("2032-06-04T00:00:00.000Z");
    expect(sale.starts_at).toBeNull();
    // Before this year's June 3 is over, it is this year's.
    expect(defaultWindow(new Date("2031-06-03T23:59:59Z")).end.toISOString()).toBe(
      "2031-06-04T00:00:00.000Z",
    );
    expect(defaultWindow(new Date("2031-06-04T00:00:00Z")).end.toISOString()).toBe(
      "2032-06-04T00:00:00.000Z",
    );
  });

  it("with dates, runs only between them", () => {
    const file = saleFile.parse({ starts_at: "2031-11-20T00:00:00Z", ends_at: "2031-11-25T00:00:00Z" });
    const settings = saleSettingsOf(config(true), file);
    expect(saleIsOn(settings, new Date("2031-11-19T23:59:59Z"))).toBe(false);
    expect(saleIsOn(settings, now)).toBe(true);
    expect(saleIsOn(settings, new Date("2031-11-25T00:00:00Z"))).toBe(false);
    expect(toSale(settings, now)).toMatchObject({
      dates_label: "NOVEMBER 20 - NOVEMBER 24",
      starts_at: "2031-11-20T00:00:00.000Z",
      ends_at: "2031-11-25T00:00:00.000Z",
    });
    expect(datesLabel(null, new Date("2031-06-04T00:00:00Z"))).toBe("UNTIL JUNE 3");
  });

  it("refuses a broken sale in site.json", () => {
    const bad = [
      { starts_at: "2031-11-25T00:00:00Z", ends_at: "2031-11-20T00:00:00Z" },
      { ends_at: "next tuesday" },
      { offers: [] },
      {
        offers: [{ offer_id: "x", plan_id: "basic-1m", role: "basic", regular_amount: 100, amount: 200 }],
      },
      {
        offers: [
          { offer_id: "x", plan_id: "basic-1m", role: "basic", regular_amount: 100, amount: 50 },
          { offer_id: "x", plan_id: "basic-1y", role: "basic", regular_amount: 1000, amount: 500 },
        ],
      },
      // Prices past what an order's int4 totals can hold.
      {
        offers: [{ offer_id: "x", plan_id: "basic-1m", role: "basic", regular_amount: 2 ** 31, amount: 50 }],
      },
      {
        offers: [
          { offer_id: "x", plan_id: "basic-1m", role: "basic", regular_amount: 2 ** 53, amount: 2 ** 53 },
        ],
      },
    ];
    for (const sale of bad) expect(saleFile.safeParse(sale).success, JSON.stringify(sale)).toBe(false);
  });

  it("applies an offer at checkout only while the sale runs", () => {
    const file = saleFile.parse({
      ends_at: "2031-11-25T00:00:00Z",
      offers: [{ offer_id: "fan-deal", plan_id: "fan-1m", role: "basic", regular_amount: 900, amount: 450 }],
    });
    const settings = saleSettingsOf(config(true), file);
    expect(activeOffer(settings, "fan-deal", now)).toEqual({
      offerId: "fan-deal",
      planId: "fan-1m",
      role: "basic",
      currency: "usd",
      regularAmount: 900,
      amount: 450,
    });
    expect(activeOffer(settings, "birthday-basic-1m", now)).toBeNull();
    expect(activeOffer(settings, "fan-deal", new Date("2031-11-25T00:00:00Z"))).toBeNull();
    expect(activeOffer(saleSettingsOf(config(false), file), "fan-deal", now)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import {
  type CouponFormValues,
  checkCouponForm,
  discountLabel,
  emptyCouponForm,
  endOfDay,
  redemptionsLabel,
} from "./coupon-rules.ts";

const NOW = new Date(2026, 4, 1, 12, 0, 0);
const form = (change: Partial<CouponFormValues>): CouponFormValues => ({ ...emptyCouponForm, ...change });

describe("the coupon form, checked like the contract's createCoupon", () => {
  it("builds the body the server takes", () => {
    const checked = checkCouponForm(
      form({
        code: "spring-24",
        value: "20",
        duration: "forever",
        planIds: ["basic-1m"],
        maxRedemptions: "50",
        expiresOn: "2026-06-30",
      }),
      NOW,
    );
    expect(checked).toEqual({
      ok: true,
      body: {
        code: "SPRING-24",
        percent_off: 20,
        amount_off: null,
        duration: "forever",
        plan_ids: ["basic-1m"],
        max_redemptions: 50,
        expires_at: endOfDay("2026-06-30"),
      },
    });
  });

  it("takes an amount off, with a comma or a point", () => {
    const checked = checkCouponForm(form({ code: "FIVE", kind: "amount", value: "4,99" }), NOW);
    expect(checked).toMatchObject({
      ok: true,
      body: { amount_off: 4.99, percent_off: null, max_redemptions: null },
    });
  });

  it.each([
    [{ code: "AB", value: "10" }, "code", "Codes are 3 to 32 characters."],
    [{ code: "NO SPACES", value: "10" }, "code", "Codes are letters, digits, _ and -."],
    [{ code: "OK1", value: "" }, "value", "Enter the percent off."],
    [{ code: "OK1", kind: "amount", value: "" }, "value", "Enter the amount off."],
    [{ code: "OK1", value: "abc" }, "value", "Enter a number."],
    [{ code: "OK1", value: "150" }, "value", "A percent off is a whole number from 1 to 100."],
    [{ code: "OK1", value: "12.5" }, "value", "A percent off is a whole number from 1 to 100."],
    [
      { code: "OK1", kind: "amount", value: "0" },
      "value",
      "An amount off is more than 0 and at most 10,000.",
    ],
    [
      { code: "OK1", value: "10", maxRedemptions: "0" },
      "maxRedemptions",
      "A limit is a whole number from 1 to 1,000,000.",
    ],
    [
      { code: "OK1", value: "10", maxRedemptions: "lots" },
      "maxRedemptions",
      "Enter a number, or leave it empty.",
    ],
    [{ code: "OK1", value: "10", expiresOn: "2026-04-30" }, "expiresOn", "Choose a day that hasn't passed."],
  ] as const)("refuses %o: %s", (change, field, message) => {
    const checked = checkCouponForm(form(change as Partial<CouponFormValues>), NOW);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors[field]).toBe(message);
  });

  it("lets a code expire at the end of the chosen day, today included", () => {
    expect(checkCouponForm(form({ code: "TODAY", value: "5", expiresOn: "2026-05-01" }), NOW).ok).toBe(true);
    expect(endOfDay("2026-02-30")).toBeNull();
    expect(endOfDay("soon")).toBeNull();
  });
});

describe("coupon labels", () => {
  it("says what a coupon takes off and how often it was used", () => {
    expect(discountLabel({ percent_off: 20, amount_off: null, currency: "usd" })).toBe("20% off");
    expect(discountLabel({ percent_off: null, amount_off: 5, currency: "usd" })).toBe("$5.00 off");
    expect(redemptionsLabel({ redeemed: 3, max_redemptions: 10 })).toBe("3 of 10 used");
    expect(redemptionsLabel({ redeemed: 3, max_redemptions: null })).toBe("3 used");
  });
});

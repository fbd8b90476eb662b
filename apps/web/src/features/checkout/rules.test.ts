import type { CheckoutCalculation } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import {
  type CountryInfo,
  calculationRequest,
  canSubmit,
  countryFromLocales,
  couponError,
  detailProblems,
  detailsFromOnFile,
  emailProblem,
  emptyDetails,
  exitStage,
  nameProblem,
  normalisePostalCode,
  type PersonalDetails,
  parseCheckoutSearch,
  periodWord,
  postalLabel,
  postalProblem,
  type SubmitState,
  serverErrorLines,
  stateProblem,
  submitBlockers,
} from "./rules.ts";

const US: CountryInfo = { code: "US", has_states: true, state_label: "State" };
const FR: CountryInfo = { code: "FR", has_states: true, state_label: "Province" };
const MC: CountryInfo = { code: "MC", has_states: false, state_label: "Province" };

const complete: PersonalDetails = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  country: "US",
  state: "CA",
  postal_code: "94103",
};

const ready: SubmitState = {
  details: complete,
  country: US,
  method: "card",
  cardComplete: true,
  termsAgreed: true,
  inFlight: false,
  errorShowing: false,
};

describe("checkout query", () => {
  it("reads plan_id, offer_id and coupon, whatever type the router gave them", () => {
    expect(parseCheckoutSearch({ plan_id: "basic-1m", coupon: 2024 })).toEqual({
      planId: "basic-1m",
      offerId: null,
      coupon: "2024",
    });
    expect(parseCheckoutSearch({ plan_id: "  ", offer_id: "sale", coupon: { x: 1 } })).toEqual({
      planId: null,
      offerId: "sale",
      coupon: null,
    });
  });

  it("calls plans with 1y annual, the rest monthly (§4)", () => {
    expect(periodWord("premium-1y")).toBe("year");
    expect(periodWord("basic-1m")).toBe("month");
  });
});

describe("§5 field rules", () => {
  it("names are required and at most 30 characters", () => {
    expect(nameProblem("first_name", "  ")).toBe("First name is required");
    expect(nameProblem("last_name", "")).toBe("Last name is required");
    expect(nameProblem("first_name", "A".repeat(30))).toBeNull();
    expect(nameProblem("first_name", "A".repeat(31))).toBe("Use at most 30 characters.");
  });

  it("email is required, at most 320, and valid: 'Invalid email address'", () => {
    expect(emailProblem("")).toBe("Invalid email address");
    expect(emailProblem("ada@")).toBe("Invalid email address");
    expect(emailProblem(`${"a".repeat(310)}@example.com`)).toBe("Invalid email address");
    expect(emailProblem(" ada@example.com ")).toBeNull();
  });

  it("postal codes: 'Invalid Zip' for US, PH and IR, 'Invalid Postal Code' elsewhere", () => {
    expect(postalProblem("US", "1234")).toBe("Invalid Zip");
    expect(postalProblem("US", "")).toBe("Invalid Zip");
    expect(postalProblem("US", "94103")).toBeNull();
    expect(postalProblem("PH", "12")).toBe("Invalid Zip");
    expect(postalProblem("GB", "not a code")).toBe("Invalid Postal Code");
    expect(postalProblem("GB", "sw1a 1aa")).toBeNull();
    expect(postalProblem("FR", "1".repeat(17))).toBe("Invalid Postal Code");
    expect(postalLabel("US")).toBe("ZIP code");
    expect(postalLabel("FR")).toBe("Postal code");
  });

  it("upper-cases postal codes and cuts them at 16", () => {
    expect(normalisePostalCode("sw1a 1aa")).toBe("SW1A 1AA");
    expect(normalisePostalCode("a".repeat(20))).toBe("A".repeat(16));
  });

  it("asks for a state by the country's label, unless the country has none", () => {
    expect(stateProblem(US, "")).toBe("Choose a state.");
    expect(stateProblem(FR, "")).toBe("Choose a province.");
    expect(stateProblem(MC, "")).toBeNull();
    expect(stateProblem(US, "CA")).toBeNull();
  });

  it("collects every problem of the details by field", () => {
    expect(detailProblems(complete, US)).toEqual({});
    expect(detailProblems({ ...emptyDetails }, undefined)).toEqual({
      first_name: "First name is required",
      last_name: "Last name is required",
      email: "Invalid email address",
      country: "Choose a country.",
    });
    expect(detailProblems({ ...complete, state: "", postal_code: "ABCDE" }, US)).toEqual({
      state: "Choose a state.",
      postal_code: "Invalid Zip",
    });
  });
});

describe("§5 submit", () => {
  it("is enabled only when every rule holds", () => {
    expect(canSubmit(ready)).toBe(true);
    expect(submitBlockers(ready)).toEqual([]);
  });

  it.each([
    ["terms not agreed", { termsAgreed: false }, "Agree to the terms of service."],
    ["card not valid", { cardComplete: false }, "Enter your card."],
    ["postal code invalid", { details: { ...complete, postal_code: "1" } }, "Fill in your details."],
    ["email invalid", { details: { ...complete, email: "ada" } }, "Fill in your details."],
    [
      "country not set",
      { details: { ...complete, country: "" }, country: undefined },
      "Fill in your details.",
    ],
    ["state missing", { details: { ...complete, state: "" } }, "Fill in your details."],
    ["blank name", { details: { ...complete, last_name: "   " } }, "Fill in your details."],
    ["an error showing", { errorShowing: true }, "Fix the problem shown."],
    ["a request in flight", { inFlight: true }, "Wait a moment…"],
    ["no method", { method: null }, "Choose how to pay."],
  ] as const)("is disabled with %s", (_, change, reason) => {
    const state = { ...ready, ...change } as SubmitState;
    expect(canSubmit(state)).toBe(false);
    expect(submitBlockers(state)).toContain(reason);
  });

  it("needs no card for a manual payment, and no state where the country has none", () => {
    expect(canSubmit({ ...ready, method: "manual", cardComplete: false })).toBe(true);
    const monaco = { ...complete, country: "MC", state: "", postal_code: "98000" };
    expect(canSubmit({ ...ready, details: monaco, country: MC })).toBe(true);
  });
});

describe("calculation request", () => {
  const plan = { planId: "basic-1m", offerId: null, promoCode: null };

  it("waits for a country (and a state where it has them)", () => {
    expect(calculationRequest(plan, { ...complete, country: "" }, undefined)).toBeNull();
    expect(calculationRequest(plan, { ...complete, state: "" }, US)).toBeNull();
    // The country record must be the one chosen (not a stale one).
    expect(calculationRequest(plan, complete, FR)).toBeNull();
  });

  it("sends email and postal code only once they are valid", () => {
    const request = calculationRequest(plan, { ...complete, email: "ada@", postal_code: "12" }, US);
    expect(request).toEqual({
      plan_id: "basic-1m",
      offer_id: null,
      country: "US",
      state: "CA",
      promo_code: null,
      platform: "web",
    });
    expect(calculationRequest({ ...plan, promoCode: "SPRING", offerId: "sale" }, complete, US)).toEqual({
      plan_id: "basic-1m",
      offer_id: "sale",
      country: "US",
      state: "CA",
      promo_code: "SPRING",
      platform: "web",
      email: "ada@example.com",
      postal_code: "94103",
    });
  });

  it("sends no state for a country without states", () => {
    const request = calculationRequest(
      plan,
      { ...complete, country: "MC", state: "", postal_code: "98000" },
      MC,
    );
    expect(request?.state).toBeNull();
  });
});

const calculation = (discounts: CheckoutCalculation["discounts"]): CheckoutCalculation => ({
  line_items: [{ name: "True Supporter (Monthly)", amount: 15 }],
  subtotal: 15,
  tax: 0,
  discounts,
  total: 15,
  currency: "usd",
  on_file: null,
});

describe("coupons and saved details", () => {
  it("shows 'Invalid coupon' for a code the calculation refused", () => {
    const bad = calculation([{ code: "NOPE", valid: false, error: "Invalid coupon", total: 0 }]);
    expect(couponError(bad, "nope")).toBe("Invalid coupon");
    expect(couponError(calculation([{ code: "NOPE", valid: false, error: null, total: 0 }]), "NOPE")).toBe(
      "Invalid coupon",
    );
    expect(
      couponError(calculation([{ code: "HALF", valid: true, error: null, total: 7.5 }]), "HALF"),
    ).toBeNull();
    expect(couponError(undefined, "NOPE")).toBeNull();
    expect(couponError(bad, null)).toBeNull();
  });

  it("turns the server's saved details into the form's, without the placeholder state", () => {
    const onFile = {
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      country: "MC",
      state: "N/A",
      postal_code: "98000",
      order_id: "o1",
      credit_card: null,
    };
    expect(detailsFromOnFile(onFile)).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      country: "MC",
      state: "",
      postal_code: "98000",
    });
  });
});

describe("helpers", () => {
  it("guesses the country from the browser's languages, among those offered", () => {
    expect(countryFromLocales(["en-US", "en"], ["US", "FR"])).toBe("US");
    expect(countryFromLocales(["fr", "de-CH", "fr-FR"], ["US", "FR"])).toBe("FR");
    expect(countryFromLocales(["en"], ["US"])).toBe("");
  });

  it("lists each of the server's issues once, else its message", () => {
    expect(
      serverErrorLines({ message: "postal_code: Invalid Zip", issues: [{ message: "Invalid Zip" }] }),
    ).toEqual(["postal_code: Invalid Zip"]);
    expect(
      serverErrorLines({
        message: "email: Invalid email address",
        issues: [
          { message: "Invalid email address" },
          { message: "Choose a country." },
          { message: "Choose a country." },
        ],
      }),
    ).toEqual(["Invalid email address", "Choose a country."]);
    expect(serverErrorLines({ message: "You already have a subscription." })).toEqual([
      "You already have a subscription.",
    ]);
  });

  it("names the stage the member left at", () => {
    expect(exitStage({ challengeOpen: false, cardTouched: false })).toBe("details");
    expect(exitStage({ challengeOpen: false, cardTouched: true })).toBe("card");
    expect(exitStage({ challengeOpen: true, cardTouched: true })).toBe("challenge");
  });
});

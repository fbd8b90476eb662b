import {
  type CheckoutCalculateRequest,
  type CheckoutCalculation,
  isAnnualPlanId,
  newOrderRequest,
  postalCodeProblem,
} from "@hearth/contract";

/**
 * Checkout's rules (accounts-billing-admin §4 Checkout, §5 Checkout, §9), kept pure so each is
 * tested alone. Field checks use the contract's own schemas, so the page and the server agree;
 * the server checks everything again on every order.
 */

/** §9: email and postal code recalculate after typing pauses this long; other fields at once. */
export const CALCULATE_DEBOUNCE_MS = 600;
/** §9: the success page reads the session again this long after loading (the tier's features). */
export const SESSION_REFRESH_MS = 5000;

/** §5 limits, also the inputs' maxLength. */
export const NAME_MAX = 30;
export const EMAIL_MAX = 320;
export const POSTAL_CODE_MAX = 16;

export const CARD_ERROR = "Enter a valid card, expiration date and cvv.";
export const INVALID_EMAIL = "Invalid email address";
export const INVALID_COUPON = "Invalid coupon";

/** The payment methods this page can take; others the server may list are skipped until declared. */
export const SUPPORTED_METHODS = ["card", "manual"] as const;
export type MethodId = (typeof SUPPORTED_METHODS)[number];

export interface PersonalDetails {
  first_name: string;
  last_name: string;
  email: string;
  /** ISO code, "" until chosen. */
  country: string;
  /** State code, "" until chosen (or where the country has none). */
  state: string;
  postal_code: string;
}

export type DetailField = keyof PersonalDetails;

export const emptyDetails: PersonalDetails = {
  first_name: "",
  last_name: "",
  email: "",
  country: "",
  state: "",
  postal_code: "",
};

/** What the page knows of the chosen country (GET /api/checkout/countries). */
export interface CountryInfo {
  code: string;
  has_states: boolean;
  state_label: "State" | "Province";
}

/** The query string as the page reads it: plan_id required, offer_id and coupon optional. */
export interface CheckoutSearch {
  planId: string | null;
  offerId: string | null;
  coupon: string | null;
}

// The router reads a query value that looks like JSON as such (?coupon=2024 arrives as a number).
const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value).trim() || null : null;

export function parseCheckoutSearch(search: Record<string, unknown>): CheckoutSearch {
  return { planId: text(search.plan_id), offerId: text(search.offer_id), coupon: text(search.coupon) };
}

/** §4: plan ids containing 1y are annual, otherwise monthly. */
export const periodWord = (planId: string) => (isAnnualPlanId(planId) ? "year" : "month");

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : (result.error?.issues[0]?.message ?? null);

/** §5: required, at most 30 characters. */
export function nameProblem(field: "first_name" | "last_name", value: string): string | null {
  if (value.trim().length > NAME_MAX) return `Use at most ${NAME_MAX} characters.`;
  return firstIssue(newOrderRequest.shape[field].safeParse(value));
}

/** §5: required, at most 320 characters, a valid address ('Invalid email address'). */
export function emailProblem(value: string): string | null {
  if (value.trim().length > EMAIL_MAX) return INVALID_EMAIL;
  return firstIssue(newOrderRequest.shape.email.safeParse(value)) ? INVALID_EMAIL : null;
}

export function countryProblem(value: string): string | null {
  return value ? null : "Choose a country.";
}

/** §5: required unless the country has no states (the server then records a placeholder). */
export function stateProblem(country: CountryInfo | undefined, value: string): string | null {
  if (!country?.has_states || value) return null;
  return `Choose a ${country.state_label.toLowerCase()}.`;
}

/** §5: required, at most 16, per the country's format: 'Invalid Zip' or 'Invalid Postal Code'. */
export function postalProblem(country: string, value: string): string | null {
  return postalCodeProblem(country, value);
}

/** The field's label: a ZIP code where §5's error says 'Invalid Zip'. */
export const postalLabel = (country: string) =>
  ["US", "PH", "IR"].includes(country) ? "ZIP code" : "Postal code";

/** §5: postal codes are upper case, at most 16 characters. */
export const normalisePostalCode = (value: string) => value.toUpperCase().slice(0, POSTAL_CODE_MAX);

/** Every problem in the personal details, by field (none: the details may be sent). */
export function detailProblems(
  details: PersonalDetails,
  country: CountryInfo | undefined,
): Partial<Record<DetailField, string>> {
  const found: Partial<Record<DetailField, string>> = {
    first_name: nameProblem("first_name", details.first_name) ?? undefined,
    last_name: nameProblem("last_name", details.last_name) ?? undefined,
    email: emailProblem(details.email) ?? undefined,
    country: countryProblem(details.country) ?? undefined,
    state: stateProblem(country, details.state) ?? undefined,
    postal_code: details.country
      ? (postalProblem(details.country, details.postal_code) ?? undefined)
      : undefined,
  };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v)) as Partial<
    Record<DetailField, string>
  >;
}

export interface SubmitState {
  details: PersonalDetails;
  country: CountryInfo | undefined;
  method: MethodId | null;
  /** The card element says the card, expiry and cvc are complete and valid. */
  cardComplete: boolean;
  termsAgreed: boolean;
  /** A calculation, order or card request is under way. */
  inFlight: boolean;
  /** A field error, an invalid coupon, or a server error is on screen. */
  errorShowing: boolean;
}

/**
 * What still stands between the member and the submit button (§5), first things first; empty
 * when it may be pressed. The page shows the first as a hint next to the disabled button.
 */
export function submitBlockers(s: SubmitState): string[] {
  const blockers: string[] = [];
  if (!s.method) blockers.push("Choose how to pay.");
  if (Object.keys(detailProblems(s.details, s.country)).length > 0) {
    blockers.push("Fill in your details.");
  }
  if (s.method === "card" && !s.cardComplete) blockers.push("Enter your card.");
  if (!s.termsAgreed) blockers.push("Agree to the terms of service.");
  if (s.errorShowing) blockers.push("Fix the problem shown.");
  if (s.inFlight) blockers.push("Wait a moment…");
  return blockers;
}

export const canSubmit = (s: SubmitState) => submitBlockers(s).length === 0;

/**
 * The calculation request for what the member has typed so far, or null while the address is
 * not enough to price (§3). Email and postal code go along only once valid: the server would
 * refuse the whole request for a half-typed one.
 */
export function calculationRequest(
  plan: { planId: string; offerId: string | null; promoCode: string | null },
  details: PersonalDetails,
  country: CountryInfo | undefined,
): CheckoutCalculateRequest | null {
  if (!country || country.code !== details.country) return null;
  if (stateProblem(country, details.state)) return null;
  const email = details.email.trim();
  const postal = details.postal_code.trim();
  return {
    plan_id: plan.planId,
    offer_id: plan.offerId,
    country: country.code,
    state: country.has_states ? details.state : null,
    promo_code: plan.promoCode,
    platform: "web",
    ...(email && !emailProblem(email) ? { email } : {}),
    ...(postal && !postalProblem(country.code, postal) ? { postal_code: postal } : {}),
  };
}

/** The coupon's verdict in a calculation, when it has one: 'Invalid coupon' for a bad code. */
export function couponError(
  calculation: CheckoutCalculation | undefined,
  code: string | null,
): string | null {
  if (!calculation || !code) return null;
  const discount = calculation.discounts.find((d) => d.code.toUpperCase() === code.trim().toUpperCase());
  if (!discount || discount.valid) return null;
  return discount.error || INVALID_COUPON;
}

/** The details the server saved from the last paid order, as the form's fields. */
export function detailsFromOnFile(onFile: NonNullable<CheckoutCalculation["on_file"]>): PersonalDetails {
  return {
    first_name: onFile.first_name,
    last_name: onFile.last_name,
    email: onFile.email,
    country: onFile.country,
    state: onFile.state && onFile.state !== "N/A" ? onFile.state : "",
    postal_code: onFile.postal_code,
  };
}

/** A first guess at the country from the browser's languages (en-US → US), for a blank form. */
export function countryFromLocales(locales: readonly string[], known: readonly string[]): string {
  for (const locale of locales) {
    const region = locale.split(/[-_]/)[1]?.toUpperCase();
    if (region && /^[A-Z]{2}$/.test(region) && known.includes(region)) return region;
  }
  return "";
}

/** An error from the server as lines for the page: each issue once, else the message. */
export function serverErrorLines(error: { message: string; issues?: { message: string }[] }): string[] {
  const issues = [...new Set((error.issues ?? []).map((i) => i.message).filter(Boolean))];
  return issues.length > 1 ? issues : [error.message];
}

/** How far the member got, for the abandonment event (POST /api/checkout/exit). */
export type ExitStage = "details" | "card" | "challenge";
export function exitStage(s: { challengeOpen: boolean; cardTouched: boolean }): ExitStage {
  if (s.challengeOpen) return "challenge";
  return s.cardTouched ? "card" : "details";
}

import postalCodes from "postal-codes-js";
import { z } from "zod";
import { planId } from "./billing.ts";
import { int32 } from "./integers.ts";

/**
 * Checkout (accounts-billing-admin §2.2 Checkout, §3 Checkout input and calculation result, §4
 * Checkout, §5 Checkout, §7). Amounts are decimals in the order's currency (14.99).
 */

/** ISO 3166-1 alpha-2, upper case. */
export const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "Choose a country.");

const email = z.string().trim().min(1, "Invalid email address").max(320).email("Invalid email address");
const personName = (what: string) => z.string().trim().min(1, `${what} is required`).max(30);
const postalCode = z.string().trim().toUpperCase().min(1, "Invalid Postal Code").max(16);
const code = z.string().trim().max(64);

/** Where the order came from (web, or the mobile app), as the spec's `platform`. */
export const checkoutPlatform = z.enum(["web", "android", "ios"]).default("web");

/** §3 Checkout input, as POST /api/checkout/calculate takes it. */
export const checkoutCalculateRequest = z.object({
  plan_id: planId,
  /** A sale offer (GET /api/sale); its price replaces the plan's for the first period. */
  offer_id: code.nullish(),
  email: email.optional(),
  country: countryCode,
  /** A state or province code; omitted where the country has none. */
  state: code.nullish(),
  postal_code: postalCode.optional(),
  /** A coupon or promotion code. */
  promo_code: code.nullish(),
  platform: checkoutPlatform,
});
export type CheckoutCalculateRequest = z.infer<typeof checkoutCalculateRequest>;

export const cardOnFile = z.object({ last_4: z.string(), type: z.string(), exp: z.string() });

/** Details a returning subscriber gave before: the form shows a summary with Change instead. */
export const checkoutOnFile = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  country: z.string(),
  state: z.string().nullable(),
  postal_code: z.string(),
  order_id: z.string(),
  credit_card: cardOnFile.nullable(),
});

/** GET /api/checkout/on_file: the saved details, before any address is typed. */
export const checkoutOnFileResponse = z.object({ on_file: checkoutOnFile.nullable() });

export const checkoutDiscount = z.object({
  code: z.string(),
  valid: z.boolean(),
  /** 'Invalid coupon' and the like, when not valid. */
  error: z.string().nullable(),
  /** What it takes off (0 when invalid). */
  total: z.number().nonnegative(),
});

/** §3 Checkout calculation result. */
export const checkoutCalculation = z.object({
  line_items: z.array(z.object({ name: z.string(), amount: z.number() })),
  subtotal: z.number().nonnegative(),
  tax: z.number().nonnegative(),
  discounts: z.array(checkoutDiscount),
  total: z.number().nonnegative(),
  currency: z.string(),
  on_file: checkoutOnFile.nullable(),
});
export type CheckoutCalculation = z.infer<typeof checkoutCalculation>;

const orderDetails = {
  plan_id: planId,
  offer_id: code.nullish(),
  email,
  first_name: personName("First name"),
  last_name: personName("Last name"),
  country: countryCode,
  state: code.nullish(),
  postal_code: postalCode,
  promo_code: code.nullish(),
  platform: checkoutPlatform,
};

/** POST /api/checkout/new_order: a card order. */
export const newOrderRequest = z.object({
  ...orderDetails,
  /**
   * The token the payment provider's card element made in the browser (Stripe: pm_…). Absent or
   * null: pay with the card on file (the saved card `on_file.credit_card` shows).
   */
  payment_token: z.string().trim().min(1, "Enter a valid card, expiration date and cvv.").max(255).nullish(),
  /** The fraud-detection session id, when the provider's script gave one. */
  session_id: z.string().max(255).nullish(),
});
export type NewOrderRequest = z.infer<typeof newOrderRequest>;

/** POST /api/checkout/manual_new_payment: pay by the site's own arrangement (bank transfer…). */
export const manualPaymentRequest = z.object(orderDetails);
export type ManualPaymentRequest = z.infer<typeof manualPaymentRequest>;

export const orderStatus = z.enum(["pending", "requires_action", "approved", "failed"]);

/**
 * §3 Order response: Approved (go to the success page), an `iframe_3ds_url` for the 3-D Secure
 * dialog, or a declined payment's `error_message`.
 */
export const orderResponse = z.object({
  resp_msg: z.enum(["Approved", "Requires action", "Declined", "Pending"]),
  order_id: z.string(),
  status: orderStatus,
  subscription_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  iframe_3ds_url: z.string().nullable(),
  error_message: z.string().nullable(),
});
export type OrderResponse = z.infer<typeof orderResponse>;

/** An alternative method's answer: the browser goes to `url`. */
export const paymentRedirect = z.object({ url: z.string() });

/** What the success page shows (§2.2 Checkout success). */
export const checkoutOrder = z.object({
  order_id: z.string(),
  status: orderStatus,
  plan_id: z.string(),
  plan_title: z.string(),
  amount: z.number().nonnegative(),
  currency: z.string(),
  created_at: z.string(),
  subscription_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  provider: z.enum(["stripe", "manual"]),
  error_message: z.string().nullable(),
  /** For a manual payment: how to pay, from the operator. */
  instructions: z.string().nullable(),
});
export type CheckoutOrder = z.infer<typeof checkoutOrder>;

export const paymentMethodOption = z.object({
  /** `card` posts to new_order; others post to `{id}_new_payment` and follow its url. */
  id: z.string(),
  label: z.string(),
});

/** GET /api/checkout/options: what this site offers at checkout. */
export const checkoutOptions = z.object({
  /** The first is the default. */
  payment_methods: z.array(paymentMethodOption),
  /** The card provider's browser script and public key (null without a card provider). */
  card: z.object({ publishable_key: z.string(), script_url: z.string() }).nullable(),
  /** The operator's payment instructions for manual payments (null when not offered). */
  manual_instructions: z.string().nullable(),
});
export type CheckoutOptions = z.infer<typeof checkoutOptions>;

export const country = z.object({
  code: z.string(),
  name: z.string(),
  /** Countries without states take a placeholder state (§5). */
  has_states: z.boolean(),
  /** 'State' for US, AU, BR, IN, MX, NG, DE; otherwise 'Province' (§5). */
  state_label: z.enum(["State", "Province"]),
});
export const countryList = z.array(country);
export const stateList = z.array(z.object({ code: z.string(), name: z.string() }));
export const countryParams = z.object({ country: countryCode });

export const orderParams = z.object({ orderId: z.string().uuid("No such order.") });

/** POST /api/checkout/exit: the member left checkout without paying (§4). */
export const checkoutExit = z.object({
  plan_id: planId,
  /** How far they got: the form, the card, the 3-D Secure dialog. */
  stage: z.enum(["details", "card", "challenge"]).default("details"),
});

/** §5: 'State' for these countries, 'Province' elsewhere. */
export const STATE_LABEL_COUNTRIES = ["US", "AU", "BR", "IN", "MX", "NG", "DE"] as const;
export const stateLabelOf = (code: string): "State" | "Province" =>
  (STATE_LABEL_COUNTRIES as readonly string[]).includes(code) ? "State" : "Province";
/** §5: 'Invalid Zip' for these countries, 'Invalid Postal Code' elsewhere. */
export const postalCodeErrorOf = (code: string) =>
  ["US", "PH", "IR"].includes(code) ? "Invalid Zip" : "Invalid Postal Code";

/**
 * The §5 message when a postal code does not fit its country's format (postal-codes-js, a
 * maintained table), else null. The web checks on blur; the server checks again on every order.
 */
export function postalCodeProblem(country: string, postal: string): string | null {
  const value = postal.trim().toUpperCase();
  if (!value || value.length > 16) return postalCodeErrorOf(country);
  const verdict = postalCodes.validate(country, value);
  // An unknown country code is the country field's problem, not the postal code's.
  if (typeof verdict === "string" && verdict.startsWith("Unknown")) return null;
  return verdict === true ? null : postalCodeErrorOf(country);
}

/** A coupon code an administrator issues (the manual provider; Stripe keeps its own promotion codes). */
export const coupon = z.object({
  code: z.string(),
  percent_off: z.number().int().nullable(),
  /** A decimal amount in `currency`. */
  amount_off: z.number().nullable(),
  currency: z.string(),
  duration: z.enum(["once", "forever"]),
  /** Empty: every plan. */
  plan_ids: z.array(z.string()),
  max_redemptions: z.number().int().nullable(),
  redeemed: z.number().int(),
  expires_at: z.string().nullable(),
});
export type Coupon = z.infer<typeof coupon>;

export const createCoupon = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .min(3)
      .max(32)
      .regex(/^[A-Z0-9_-]+$/, "Codes are letters, digits, _ and -."),
    percent_off: int32(1, 100).nullish(),
    amount_off: z.number().positive().max(10000).nullish(),
    duration: z.enum(["once", "forever"]).default("once"),
    plan_ids: z.array(planId).max(20).default([]),
    max_redemptions: int32(1, 1_000_000).nullish(),
    expires_at: z.iso.datetime().nullish(),
  })
  .refine((c) => (c.percent_off == null) !== (c.amount_off == null), {
    message: "Give either a percent or an amount off.",
    path: ["percent_off"],
  });
export type CreateCoupon = z.infer<typeof createCoupon>;
export const couponParams = z.object({ code: z.string().trim().toUpperCase().min(1).max(32) });

/** An order waiting for an administrator to mark its manual payment received. */
export const pendingOrder = checkoutOrder.extend({
  user_id: z.string().nullable(),
  email: z.string(),
  name: z.string(),
});
export const pendingOrderList = z.array(pendingOrder);

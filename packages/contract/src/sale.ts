import { z } from "zod";
import { billingPeriod, paidRole, planId } from "./billing.ts";

/**
 * The birthday sale (accounts-billing-admin §2.2 "Sale page", §4 "Sale gift card", §9 "Sale
 * offers", "Sale copy"): its dates and the offers checkout applies by `offer_id`. Prices are
 * decimals in the offer's currency, as plans show them.
 */

export const offerId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, "Offer ids are lowercase letters, digits, _ and -");

export const saleOffer = z.object({
  offer_id: offerId,
  /** The plan checkout subscribes to (`/checkout?plan_id=…&offer_id=…`). */
  plan_id: planId,
  role: paidRole,
  /** The tier's name (Get a Taste, True Supporter, I'm All In). */
  title: z.string(),
  period: billingPeriod,
  currency: z.string(),
  /** The struck price: a month of the plan, or for annual offers twelve months paid monthly. */
  regular_price: z.number().nonnegative(),
  /** What the first period costs with the offer; later periods renew at the plan's price (§9). */
  price: z.number().nonnegative(),
  percent_off: z.number().int().min(0).max(100),
});
export type SaleOffer = z.infer<typeof saleOffer>;

export const sale = z.object({
  /** The birthday-celebration heading. */
  title: z.string(),
  /** The dates as the page shows them: "MAY 30 - JUNE 3". */
  dates_label: z.string(),
  /** When it began; null when it runs for as long as the operator keeps it on. */
  starts_at: z.string().nullable(),
  /** What the countdown counts down to. */
  ends_at: z.string(),
  offers: z.array(saleOffer),
  /** §9 Sale copy. */
  note: z.string(),
});
export type Sale = z.infer<typeof sale>;

export const SALE_NOTE = "The discount applies to the first month only; renewals are at the regular price.";

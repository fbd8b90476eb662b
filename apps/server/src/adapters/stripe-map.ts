import type Stripe from "stripe";
import type { CardSummary, OrderOutcome, ProviderSubscription } from "../ports/payments.ts";

/**
 * Reading Stripe's objects (API 2026-10-28.endive, the SDK's pinned version) into the port's
 * shapes. Pure: the adapter fetches, these only read.
 */

/** Metadata keys Hearth sets on Stripe objects. */
export const USER_KEY = "hearth_user_id";
export const PLAN_KEY = "plan_id";
/** The plan a scheduled downgrade switches to, mirrored from the schedule so webhooks carry it. */
export const NEXT_PLAN_KEY = "hearth_next_plan_id";

export const INVALID_COUPON = "Invalid coupon";
export const NEEDS_CONFIRMATION =
  "Your bank asks you to confirm this payment. Please pay it again from checkout, where you can confirm it.";
const AUTHENTICATION_FAILED =
  "Your bank could not confirm this payment. Please try again or use another card.";
const NOT_PAID = "The payment did not go through. Please try again or use another card.";

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

export function cardSummary(pm: string | Stripe.PaymentMethod | null | undefined): CardSummary | null {
  if (!pm || typeof pm === "string" || !pm.card) return null;
  const { brand, last4, exp_month, exp_year } = pm.card;
  return {
    brand,
    last4,
    exp: `${String(exp_month).padStart(2, "0")}/${String(exp_year % 100).padStart(2, "0")}`,
  };
}

/**
 * Stripe's status as Hearth's: a running subscription set to end is `cancelled`; past_due and
 * unpaid (and paused, which collects nothing) are `grace`; canceled and incomplete_expired have
 * ended.
 */
export function statusOf(sub: Stripe.Subscription): ProviderSubscription["status"] {
  switch (sub.status) {
    case "active":
    case "trialing":
      return sub.cancel_at_period_end || sub.cancel_at !== null ? "cancelled" : "active";
    case "past_due":
    case "unpaid":
    case "paused":
      return "grace";
    case "canceled":
    case "incomplete_expired":
      return "expired";
    default:
      return "incomplete";
  }
}

/**
 * The port's view of a subscription. Since API 2025-03-31.basil the period lives on each item;
 * the plan is the price's lookup_key. The card is known only when default_payment_method was
 * expanded (never in a webhook).
 */
export function toProviderSubscription(sub: Stripe.Subscription): ProviderSubscription {
  const items = sub.items.data;
  const planId = items[0]?.price.lookup_key ?? sub.metadata[PLAN_KEY] ?? "";
  const ends = items.map((item) => item.current_period_end);
  const next = sub.schedule ? sub.metadata[NEXT_PLAN_KEY] || null : null;
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? "",
    planId,
    status: statusOf(sub),
    recurAt: ends.length > 0 ? new Date(Math.min(...ends) * 1000) : null,
    card: cardSummary(sub.default_payment_method),
    nextPlanId: next && next !== planId ? next : null,
  };
}

/** The subscription an invoice bills (API basil moved it under `parent`). */
export const subscriptionOfInvoice = (invoice: Stripe.Invoice): string | null =>
  idOf(invoice.parent?.subscription_details?.subscription);

/** The PaymentIntent Stripe made when it finalized the invoice (`payments` must be expanded). */
export function paymentIntentOfInvoice(invoice: Stripe.Invoice): string | null {
  const payments = invoice.payments?.data ?? [];
  const payment = payments.find((p) => p.is_default && p.status !== "canceled") ?? payments[0];
  return payment?.payment.type === "payment_intent" ? idOf(payment.payment.payment_intent) : null;
}

/** A monthly rate, so that a yearly price compares with a monthly one. */
export function monthlyRate(price: Stripe.Price): number {
  const amount = price.unit_amount ?? 0;
  const recurring = price.recurring;
  if (!recurring) return amount;
  const perInterval: Record<string, number> = { day: 1 / 30.4375, week: 7 / 30.4375, month: 1, year: 12 };
  const months = perInterval[recurring.interval] ?? 1;
  return amount / (months * recurring.interval_count);
}

/** Where a PaymentIntent stands, as the port's outcome (`subscriptionId` found by the caller). */
export function outcomeOf(intent: Stripe.PaymentIntent, subscriptionId: string | null): OrderOutcome {
  switch (intent.status) {
    case "succeeded":
      if (!subscriptionId) throw new Error(`Stripe payment ${intent.id} pays no subscription.`);
      return {
        status: "approved",
        paymentId: intent.id,
        subscriptionId,
        card: cardSummary(typeof intent.payment_method === "string" ? null : intent.payment_method),
      };
    case "requires_action": {
      const url = intent.next_action?.redirect_to_url?.url;
      return url
        ? { status: "requires_action", paymentId: intent.id, challengeUrl: url }
        : { status: "failed", paymentId: intent.id, message: NEEDS_CONFIRMATION };
    }
    case "processing":
      return {
        status: "failed",
        paymentId: intent.id,
        message: "The payment is still being processed; check again shortly.",
      };
    default: {
      const error = intent.last_payment_error;
      const message =
        error?.code === "payment_intent_authentication_failure"
          ? AUTHENTICATION_FAILED
          : (error?.message ?? NOT_PAID);
      return { status: "failed", paymentId: intent.id, message };
    }
  }
}

/**
 * What an upgrade charges now, from its preview: with always_invoice the preview is the invoice
 * made at once (prorations only); should it also carry the next period, only its proration lines
 * (with their tax) count.
 */
export function prorationDue(preview: Stripe.Invoice): number {
  const lines = preview.lines.data;
  const proration = (line: Stripe.InvoiceLineItem) =>
    line.parent?.subscription_item_details?.proration ??
    line.parent?.invoice_item_details?.proration ??
    false;
  if (lines.every(proration) || !lines.some(proration)) return preview.amount_due;
  const due = lines
    .filter(proration)
    .reduce(
      (sum, line) =>
        sum +
        line.amount +
        (line.taxes ?? []).reduce((t, tax) => t + (tax.tax_behavior === "exclusive" ? tax.amount : 0), 0),
      0,
    );
  return Math.max(0, due);
}

import type { BillingPeriod, Subscription } from "@hearth/contract";
import { formatPrice, TIERS } from "../subscribe/frequency.ts";

/**
 * The subscriber portal's visibility rules (accounts-billing-admin §2.2 Subscriber portal, §4, §8),
 * kept pure so each rule is tested on its own. The server refuses what these hide anyway.
 */

/** §8 Grace. A failed Pay overdue shows its own message in its place. */
export const GRACE_TEXT = "Your payment failed. Please update your payment method to avoid losing access.";
/** §8 Expired. */
export const EXPIRED_TEXT = "Your subscription has expired.";

/** How long after a plan change the session (role, permissions) is read again (§4, §9). */
export const SESSION_REFRESH_MS = 5000;

export type PortalStatus = Subscription["subscription_status"];

export interface PortalActions {
  cancel: boolean;
  uncancel: boolean;
  /** Shown, and why it is disabled (null: enabled). */
  changePlan: { visible: boolean; disabledReason: string | null };
  changeCard: boolean;
  payOverdue: boolean;
}

/**
 * Which buttons the portal offers. Cancel, Uncancel and Change Plan are hidden when the card is
 * deleted or the subscription expired (or never started); Change Plan is disabled while cancelled.
 * Change Card stays for a deleted card, since a new card is the way out; it exists only where a
 * card does (Stripe). Pay overdue is for grace.
 */
export function portalActions(sub: Subscription, now: Date = new Date()): PortalActions {
  const status = sub.subscription_status;
  const over = status === "expired" || status === "incomplete";
  const hidden = over || sub.is_card_deleted;
  const ended = sub.recur_at !== null && Date.parse(sub.recur_at) <= now.getTime();
  return {
    cancel: !hidden && (status === "active" || status === "grace"),
    uncancel: !hidden && status === "cancelled" && !ended,
    changePlan: {
      visible: !hidden,
      disabledReason:
        status === "cancelled"
          ? "Uncancel your subscription to change its plan."
          : status === "grace"
            ? "Pay the overdue amount before changing your plan."
            : null,
    },
    changeCard: sub.provider === "stripe" && !over,
    payOverdue: status === "grace",
  };
}

export type PortalNotice =
  | { kind: "grace"; text: string }
  | { kind: "expired"; text: string; reactivatePlanId: string }
  | { kind: "cancelled"; until: string | null }
  | { kind: "incomplete"; planId: string }
  | null;

/** The status message above the buttons; a failed rebill's message replaces the grace text (§8). */
export function portalNotice(sub: Subscription, rebillError: string | null = null): PortalNotice {
  switch (sub.subscription_status) {
    case "grace":
      return { kind: "grace", text: rebillError ?? GRACE_TEXT };
    case "expired":
      // §2.2: reaching checkout with the plan reactivates an expired subscription.
      return { kind: "expired", text: EXPIRED_TEXT, reactivatePlanId: sub.current_product.plan_id };
    case "cancelled":
      return { kind: "cancelled", until: sub.recur_at };
    case "incomplete":
      return { kind: "incomplete", planId: sub.current_product.plan_id };
    default:
      return null;
  }
}

/** What the date row is called in each state; null: no date to show. */
export function dateLabel(sub: Subscription): string | null {
  if (!sub.recur_at) return null;
  switch (sub.subscription_status) {
    case "active":
      return "Next charge date";
    case "cancelled":
      return "Benefits end on";
    case "grace":
      return "Payment was due on";
    case "expired":
      return "Ended on";
    default:
      return null;
  }
}

const cardBrands: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners: "Diners Club",
  unionpay: "UnionPay",
};

/** The payment method row: a card summary, or the manual provider's arrangement. */
export function paymentMethod(sub: Subscription): string {
  if (sub.provider === "manual") return "Arranged with the site's administrators";
  if (sub.is_card_deleted) return "No card on file (it was removed)";
  if (!sub.credit_card) return "No card on file";
  const brand = cardBrands[sub.credit_card.type.toLowerCase()] ?? "Card";
  return `${brand} ending in ${sub.credit_card.last_4}`;
}

export const isYearly = (sub: Subscription) => sub.frequency === "Yearly Subscription";

/** The Change Plan dialog's frequencies: yearly subscribers see annual plans only; others toggle. */
export function dialogPeriods(sub: Subscription): BillingPeriod[] {
  return isYearly(sub) ? ["annual"] : ["monthly", "annual"];
}

export interface PlanOption {
  plan_id: string;
  name: string;
  price: string;
  period: BillingPeriod;
  /** The current plan: shown, never chosen. */
  current: boolean;
  /** The plan a waiting change switches to at the period's end. */
  scheduled: boolean;
  /** What choosing it does: charged now (prorated, plus taxes), or from the next billing cycle. */
  note: string;
}

/** The plans offered for one frequency, lowest tier first, each with its price and what changing does. */
export function planOptions(sub: Subscription, period: BillingPeriod): PlanOption[] {
  const offered = sub.available_plans.filter(
    (p) => p.billing_frequency === period && (!isYearly(sub) || p.billing_frequency === "annual"),
  );
  offered.sort((a, b) => TIERS.indexOf(a.role) - TIERS.indexOf(b.role));
  return offered.map((p) => ({
    plan_id: p.plan_id,
    name: p.name,
    price: formatPrice(p.price, p.currency),
    period: p.billing_frequency,
    current: p.plan_id === sub.current_product.plan_id,
    scheduled: p.plan_id === sub.next_product?.plan_id,
    note:
      p.upgrade_price > 0
        ? `${formatPrice(p.upgrade_price, p.currency)} charged now, prorated, plus taxes.`
        : "Takes effect at the next billing cycle.",
  }));
}

/** The frequency the dialog opens on: the subscription's own. */
export const initialPeriod = (sub: Subscription): BillingPeriod => (isYearly(sub) ? "annual" : "monthly");

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long" });

/** recur_at as the portal shows it, in the reader's time zone ("June 3, 2026"). */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

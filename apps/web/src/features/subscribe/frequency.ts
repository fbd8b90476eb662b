import type { BillingPeriod, PaidRole, Plan } from "@hearth/contract";

/**
 * The subscribe pages' frequency (accounts-billing-admin §2.2): the route segment is `monthly` or
 * `annually` and defaults to monthly; the plans call the same thing a `period`.
 */

export const FREQUENCIES = ["monthly", "annually"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The route segment as a frequency: anything but `annually` (missing, misspelt) is monthly. */
export function parseFrequency(segment: unknown): Frequency {
  return segment === "annually" ? "annually" : "monthly";
}

export const periodOf = (frequency: Frequency): BillingPeriod =>
  frequency === "annually" ? "annual" : "monthly";

/** Lowest tier first, as the cards and the comparison's columns are ordered. */
export const TIERS: readonly PaidRole[] = ["minimal", "basic", "premium"];

/** `?plan=<role>` from an upgrade prompt; anything else preselects nothing. */
export function parseRole(value: unknown): PaidRole | null {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value)
    ? (value as PaidRole)
    : null;
}

/** The frequency's plans, one per tier where the operator offers it, lowest tier first. */
export function plansFor(plans: readonly Plan[], frequency: Frequency): Plan[] {
  const period = periodOf(frequency);
  return TIERS.flatMap((role) => plans.find((p) => p.role === role && p.period === period) ?? []);
}

/**
 * The tier the page highlights among the cards shown: the one `?plan=` asked for when offered,
 * else the tier of the operator's default plan (whichever frequency that plan is).
 */
export function highlightedRole(
  shown: readonly Plan[],
  asked: PaidRole | null,
  all: readonly Plan[],
  defaultPlanId: string,
): PaidRole | null {
  const offered = (role: PaidRole | null | undefined) =>
    role && shown.some((p) => p.role === role) ? role : null;
  return offered(asked) ?? offered(all.find((p) => p.plan_id === defaultPlanId)?.role);
}

/** Search params that carry over when the toggle changes the route (the preselected plan, a coupon). */
export interface SubscribeSearch {
  plan?: PaidRole;
  coupon?: string;
}

export function subscribeSearch(search: Record<string, unknown>): SubscribeSearch {
  const plan = parseRole(search.plan);
  // The router reads a query value that looks like JSON as such: ?coupon=2024 arrives as a number.
  const raw = typeof search.coupon === "number" ? String(search.coupon) : search.coupon;
  const coupon = typeof raw === "string" && raw.trim() ? raw.trim() : undefined;
  return { ...(plan ? { plan } : {}), ...(coupon ? { coupon } : {}) };
}

/** Where a plan's Subscribe button goes: the checkout, with the coupon that came in, if any. */
export function checkoutSearch(planId: string, coupon?: string): { plan_id: string; coupon?: string } {
  return coupon ? { plan_id: planId, coupon } : { plan_id: planId };
}

export const checkoutHref = (planId: string, coupon?: string) =>
  `/checkout?${new URLSearchParams(checkoutSearch(planId, coupon)).toString()}`;

const money = new Map<string, Intl.NumberFormat>();

/** 15 usd → "$15.00": the product's decimal amounts in their currency. */
export function formatPrice(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  let format = money.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat("en-US", { style: "currency", currency: code });
    } catch {
      // An operator's currency code Intl doesn't know: show the number and the code.
      format = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      return `${format.format(amount)} ${code}`;
    }
    money.set(code, format);
  }
  return format.format(amount);
}

export const perPeriod = (period: BillingPeriod) => (period === "annual" ? "year" : "month");

/**
 * The comparison's rows: every tier's own features in tier order, and for each the lowest tier
 * that has it (higher tiers include lower ones; their "Everything in …" line says only that).
 */
export function comparisonRows(plans: readonly Plan[]): { title: string; from: PaidRole; new: boolean }[] {
  const rows: { title: string; from: PaidRole; new: boolean }[] = [];
  for (const role of TIERS) {
    const plan = plans.find((p) => p.role === role);
    for (const feature of plan?.features ?? []) {
      if (/^everything in /i.test(feature.title)) continue;
      if (rows.some((row) => row.title === feature.title)) continue;
      rows.push({ title: feature.title, from: role, new: feature.new });
    }
  }
  return rows;
}

export const tierIncludes = (tier: PaidRole, from: PaidRole) => TIERS.indexOf(tier) >= TIERS.indexOf(from);

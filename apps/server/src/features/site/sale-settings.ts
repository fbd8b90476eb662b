import {
  int32,
  isAnnualPlanId,
  nonNegativeInt32,
  offerId,
  type PaidRole,
  PRICE_UNITS_MAX,
  paidRole,
  planId,
  roleTitle,
  SALE_NOTE,
  type Sale,
  type SaleOffer,
} from "@hearth/contract";
import { z } from "zod";
import type { Config } from "../../config.ts";

/**
 * The birthday sale (accounts-billing-admin §2.2 Sale page, §9): HEARTH_SALE switches it on;
 * `$HEARTH_DATA_DIR/site.json`'s `sale` may give its heading, dates and offers. Without dates it
 * runs while the switch is on and counts down to the spec's June 3; with them, only between them.
 * Amounts are in the currency's smallest unit, as in plans.json.
 */

export const saleFile = z
  .object({
    title: z.string().trim().min(1).max(120).optional(),
    starts_at: z.iso.datetime({ offset: true }).optional(),
    ends_at: z.iso.datetime({ offset: true }).optional(),
    offers: z
      .array(
        z.object({
          offer_id: offerId,
          plan_id: planId,
          role: paidRole,
          currency: z
            .string()
            .regex(/^[a-z]{3}$/, "currency is a three-letter ISO code in lowercase")
            .default("usd"),
          /** The struck price: a month of the plan, or for an annual plan twelve monthly payments. */
          regular_amount: int32(1, PRICE_UNITS_MAX),
          /** The first period's price with the offer. */
          amount: nonNegativeInt32(PRICE_UNITS_MAX),
        }),
      )
      .min(1)
      .max(24)
      .optional(),
  })
  .superRefine((sale, ctx) => {
    if (sale.starts_at && sale.ends_at && Date.parse(sale.ends_at) <= Date.parse(sale.starts_at)) {
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "ends_at must come after starts_at" });
    }
    const ids = sale.offers?.map((o) => o.offer_id) ?? [];
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: "custom", message: "offer ids must be unique" });
    for (const offer of sale.offers ?? []) {
      if (offer.amount > offer.regular_amount)
        ctx.addIssue({ code: "custom", message: `${offer.offer_id}: amount is above regular_amount` });
    }
  });
export type SaleFile = z.infer<typeof saleFile>;

export interface OfferSpec {
  offerId: string;
  planId: string;
  role: PaidRole;
  currency: string;
  /** Smallest currency unit. */
  regularAmount: number;
  amount: number;
}

export interface SaleSettings {
  /** HEARTH_SALE: without it there is no sale, whatever the file says. */
  enabled: boolean;
  title: string;
  startsAt: Date | null;
  /** Null: no end given, so it runs while switched on (the countdown uses the spec's dates). */
  endsAt: Date | null;
  offers: OfferSpec[];
}

const offer = (role: PaidRole, annual: boolean, regularAmount: number, amount: number): OfferSpec => ({
  offerId: `birthday-${role}-${annual ? "1y" : "1m"}`,
  planId: `${role}-${annual ? "1y" : "1m"}`,
  role,
  currency: "usd",
  regularAmount,
  amount,
});

/**
 * §9: monthly 80%, 50% and 56% off the first month (4.99 → 0.99, 15 → 7.50, 24.99 → 10.99, which
 * is also the banner's "just $0.99"); yearly 41.99, 125.99 and 209.99, 30% off twelve monthly
 * payments. The plan ids are billing's defaults.
 */
export const DEFAULT_SALE_OFFERS: readonly OfferSpec[] = [
  offer("minimal", false, 499, 99),
  offer("minimal", true, 12 * 499, 4199),
  offer("basic", false, 1500, 750),
  offer("basic", true, 12 * 1500, 12599),
  offer("premium", false, 2499, 1099),
  offer("premium", true, 12 * 2499, 20999),
];

export function saleSettingsOf(
  config: Pick<Config, "brand" | "site">,
  file: SaleFile | undefined,
): SaleSettings {
  return {
    enabled: config.site.saleActive,
    title: file?.title ?? `${config.brand.name}'s Birthday Celebration`,
    startsAt: file?.starts_at ? new Date(file.starts_at) : null,
    endsAt: file?.ends_at ? new Date(file.ends_at) : null,
    offers: file?.offers
      ? file.offers.map((o) => ({
          offerId: o.offer_id,
          planId: o.plan_id,
          role: o.role,
          currency: o.currency,
          regularAmount: o.regular_amount,
          amount: o.amount,
        }))
      : [...DEFAULT_SALE_OFFERS],
  };
}

/** Whether the sale runs at `now`: switched on, and within its dates where it has them. */
export function saleIsOn(sale: SaleSettings, now: Date): boolean {
  if (!sale.enabled) return false;
  if (sale.startsAt && now < sale.startsAt) return false;
  return !(sale.endsAt && now >= sale.endsAt);
}

/** The spec's MAY 30 - JUNE 3 (UTC, the end exclusive at June 4), the next such window not yet over. */
export function defaultWindow(now: Date): { start: Date; end: Date } {
  let year = now.getUTCFullYear();
  if (Date.UTC(year, 5, 4) <= now.getTime()) year += 1;
  return { start: new Date(Date.UTC(year, 4, 30)), end: new Date(Date.UTC(year, 5, 4)) };
}

const dayLabel = (at: Date) =>
  at.toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" }).toUpperCase();

/** "MAY 30 - JUNE 3": the first day and the last (the end is exclusive). */
export function datesLabel(start: Date | null, end: Date): string {
  const last = dayLabel(new Date(end.getTime() - 1));
  return start ? `${dayLabel(start)} - ${last}` : `UNTIL ${last}`;
}

const decimal = (amount: number) => Math.round(amount) / 100;

export function toSaleOffer(spec: OfferSpec): SaleOffer {
  return {
    offer_id: spec.offerId,
    plan_id: spec.planId,
    role: spec.role,
    title: roleTitle[spec.role],
    period: isAnnualPlanId(spec.planId) ? "annual" : "monthly",
    currency: spec.currency,
    regular_price: decimal(spec.regularAmount),
    price: decimal(spec.amount),
    percent_off: Math.round((1 - spec.amount / spec.regularAmount) * 100),
  };
}

/** GET /api/sale's answer for a running sale. */
export function toSale(sale: SaleSettings, now: Date): Sale {
  // Without an end the countdown (and the dates shown) run to the spec's next June 3.
  const fallback = defaultWindow(now);
  const end = sale.endsAt ?? fallback.end;
  const start = sale.startsAt ?? (sale.endsAt ? null : fallback.start);
  return {
    title: sale.title,
    dates_label: datesLabel(start, end),
    starts_at: sale.startsAt?.toISOString() ?? null,
    ends_at: end.toISOString(),
    offers: sale.offers.map(toSaleOffer),
    note: SALE_NOTE,
  };
}

import {
  type BillingPeriod,
  int32,
  isAnnualPlanId,
  type PaidRole,
  type Plan,
  type PlanList,
  PRICE_UNITS_MAX,
  paidRole,
  planId,
  planPerks,
  roleTitle,
} from "@hearth/contract";
import { z } from "zod";
import { readDataFile } from "../../lib/data-file.ts";

/**
 * The paid plans (accounts-billing-admin §1, §3, §9): the spec's tiers and prices by default, or
 * the operator's `$HEARTH_DATA_DIR/plans.json`, read once at start. Amounts are kept in the
 * currency's smallest unit; the API shows them as decimals.
 */

export const ANNUAL_TAGLINE = "2 months free / 16% Off";

const tierDescription: Record<PaidRole, string> = {
  minimal: "Skip the line and keep your characters' memories.",
  basic: "Longer memory, longer replies and images in your chats.",
  premium: "Everything, first in the queue, on the largest models.",
};

export interface PlanSpec {
  planId: string;
  role: PaidRole;
  period: BillingPeriod;
  currency: string;
  /** Smallest currency unit per period (cents). */
  amount: number;
}

/**
 * §9: True Supporter 15 / 149.99, I'm All In 24.99 / 249.99, Get a Taste 50 a year. Get a
 * Taste's monthly price is not given; 4.99 keeps the tagline's "2 months free" true of it.
 */
export const DEFAULT_PLANS: PlanSpec[] = [
  { planId: "minimal-1m", role: "minimal", period: "monthly", currency: "usd", amount: 499 },
  { planId: "minimal-1y", role: "minimal", period: "annual", currency: "usd", amount: 4999 },
  { planId: "basic-1m", role: "basic", period: "monthly", currency: "usd", amount: 1500 },
  { planId: "basic-1y", role: "basic", period: "annual", currency: "usd", amount: 14999 },
  { planId: "premium-1m", role: "premium", period: "monthly", currency: "usd", amount: 2499 },
  { planId: "premium-1y", role: "premium", period: "annual", currency: "usd", amount: 24999 },
];
export const DEFAULT_PLAN_ID = "basic-1m";

const plansFile = z
  .object({
    plans: z
      .array(
        z.object({
          plan_id: planId,
          role: paidRole,
          currency: z
            .string()
            .regex(/^[a-z]{3}$/, "currency is a three-letter ISO code in lowercase")
            .default("usd"),
          amount: int32(1, PRICE_UNITS_MAX),
        }),
      )
      .min(1),
    default_plan_id: planId.optional(),
  })
  .superRefine((file, ctx) => {
    const ids = file.plans.map((p) => p.plan_id);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: "custom", message: "plan ids must be unique" });
    if (file.default_plan_id && !ids.includes(file.default_plan_id)) {
      ctx.addIssue({ code: "custom", message: `default_plan_id ${file.default_plan_id} is not a plan` });
    }
  });

export interface PlanCatalog {
  plans: PlanSpec[];
  defaultPlanId: string;
  find(id: string): PlanSpec | undefined;
}

export function planCatalog(plans: PlanSpec[], defaultPlanId: string): PlanCatalog {
  const byId = new Map(plans.map((p) => [p.planId, p]));
  return { plans, defaultPlanId, find: (id) => byId.get(id) };
}

/** The operator's plans.json, or the defaults; a broken file stops the start with its reason. */
export function readPlanCatalog(dataDir: string): PlanCatalog {
  const file = readDataFile(dataDir, "plans.json", plansFile);
  if (!file) return planCatalog(DEFAULT_PLANS, DEFAULT_PLAN_ID);
  const plans = file.plans.map(
    (p): PlanSpec => ({
      planId: p.plan_id,
      role: p.role,
      period: isAnnualPlanId(p.plan_id) ? "annual" : "monthly",
      currency: p.currency,
      amount: p.amount,
    }),
  );
  return planCatalog(plans, file.default_plan_id ?? plans[0]?.planId ?? DEFAULT_PLAN_ID);
}

/** An amount in the smallest unit as the decimal the product shows (1499 → 14.99). */
export const decimal = (amount: number) => Math.round(amount) / 100;

export function toPlan(spec: PlanSpec): Plan {
  const monthly = spec.period === "annual" ? spec.amount / 12 : spec.amount;
  return {
    plan_id: spec.planId,
    role: spec.role,
    title: roleTitle[spec.role],
    description: tierDescription[spec.role],
    period: spec.period,
    currency: spec.currency,
    price: decimal(spec.amount),
    price_per_day: Math.round(monthly / 30) / 100,
    features: planPerks[spec.role].map((title) => ({ title, new: false })),
    annual_tagline: spec.period === "annual" ? ANNUAL_TAGLINE : null,
  };
}

export const toPlanList = (catalog: PlanCatalog): PlanList => ({
  plans: catalog.plans.map(toPlan),
  default_plan_id: catalog.defaultPlanId,
});

import { z } from "zod";
import { int32 } from "./integers.ts";

/**
 * Billing (accounts-billing-admin §1 tiers, §3 Plan, §9 prices). Prices are decimal amounts in
 * the plan's currency as the product shows them (14.99); the server keeps smallest units.
 */

export const paidRole = z.enum(["minimal", "basic", "premium"]);
export type PaidRole = z.infer<typeof paidRole>;

export const billingPeriod = z.enum(["monthly", "annual"]);

/**
 * The largest price a plan or a sale's offer may have, in smallest units (a million in the
 * currency): a total with its tax still fits the int4 columns an order keeps it in.
 */
export const PRICE_UNITS_MAX = 100_000_000;
export type BillingPeriod = z.infer<typeof billingPeriod>;

/** Plan ids carry their period: one containing `1y` is annual (§4 Checkout). */
export const planId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_-]+$/, "Plan ids are lowercase letters, digits, _ and -");

export const planFeature = z.object({
  title: z.string(),
  /** Marked as new on the subscribe page. */
  new: z.boolean(),
});

export const plan = z.object({
  plan_id: planId,
  role: paidRole,
  /** The tier's name: Get a Taste, True Supporter, I'm All In. */
  title: z.string(),
  description: z.string(),
  period: billingPeriod,
  currency: z.string(),
  price: z.number().nonnegative(),
  /** What a day costs: the monthly price divided by 30 (§9); for an annual plan, its monthly equivalent / 30. */
  price_per_day: z.number().nonnegative(),
  features: z.array(planFeature),
  /** The annual discount text ('2 months free / 16% Off'); null on monthly plans. */
  annual_tagline: z.string().nullable(),
});
export type Plan = z.infer<typeof plan>;

export const planList = z.object({
  plans: z.array(plan),
  /** The plan the subscribe page preselects. */
  default_plan_id: planId,
});
export type PlanList = z.infer<typeof planList>;

/** Annual when the id says `1y` (§4). */
export const isAnnualPlanId = (id: string) => id.includes("1y");

export const subscriptionStatus = z.enum(["incomplete", "active", "cancelled", "grace", "expired"]);
export type SubscriptionStatusName = z.infer<typeof subscriptionStatus>;

export const product = z.object({
  plan_id: planId,
  name: z.string(),
  role: paidRole,
  price: z.number().nonnegative(),
  currency: z.string(),
});

/** §3 Subscription: what the portal shows and acts on. */
export const subscription = z.object({
  /** The checkout order that started it; null for one an administrator granted. */
  order_id: z.string().nullable(),
  subscription_id: z.string(),
  subscription_status: subscriptionStatus,
  provider: z.enum(["stripe", "manual"]),
  /** The end of the paid period: the next charge, or when a cancelled subscription ends. */
  recur_at: z.string().nullable(),
  frequency: z.enum(["Yearly Subscription", "Monthly Subscription"]),
  is_card_deleted: z.boolean(),
  credit_card: z.object({ type: z.string(), last_4: z.string() }).nullable(),
  current_product: product,
  /** The plan a waiting downgrade switches to at recur_at. */
  next_product: product.nullable(),
  available_plans: z.array(
    product.extend({
      billing_frequency: billingPeriod,
      /** Charged now for this change (prorated, before taxes); 0: it takes effect at the next cycle. */
      upgrade_price: z.number().nonnegative(),
    }),
  ),
});
export type Subscription = z.infer<typeof subscription>;

/** GET /api/subscriptions/sticky: the first item is the subscription (empty without one). */
export const stickySubscriptions = z.array(subscription);

export const subscriptionAction = z.enum([
  "cancel",
  "uncancel",
  "change_plan",
  "change_card",
  "charge_rebill",
]);

export const subscriptionActionRequest = z
  .object({
    action: subscriptionAction,
    order_id: z.string().max(64).nullable().optional(),
    subscription_id: z.string().min(1).max(64),
    plan_id: planId.optional(),
    card_token: z.string().min(1).max(255).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.action === "change_plan" && !body.plan_id) {
      ctx.addIssue({ code: "custom", path: ["plan_id"], message: "Choose the plan to change to." });
    }
    if (body.action === "change_card" && !body.card_token) {
      ctx.addIssue({ code: "custom", path: ["card_token"], message: "Enter the new card." });
    }
  });
export type SubscriptionActionRequest = z.infer<typeof subscriptionActionRequest>;

export const subscriptionActionResult = z.object({
  status: z.literal("SUCCESS"),
  subscription_status: subscriptionStatus,
  message: z.string(),
});

/** POST /api/admin/subscriptions: the manual provider's grant (a payment received, or gifted months). */
export const grantSubscription = z.object({
  user_id: z.string().min(1).max(64),
  plan_id: planId,
  months: int32(1, 36),
});
export type GrantSubscription = z.infer<typeof grantSubscription>;

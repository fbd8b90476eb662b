import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** Who took the money: Stripe, or an administrator marking payments received (self-hosters). */
export const PAYMENT_PROVIDERS = ["stripe", "manual"] as const;
/** accounts-billing-admin §4: cancelled keeps access until recur_at; grace = a payment failed. */
export const SUBSCRIPTION_STATUSES = ["incomplete", "active", "cancelled", "grace", "expired"] as const;
export const BILLING_PERIODS = ["monthly", "annual"] as const;

/**
 * A member's subscription with one provider (issue 13). The users row's role and status are
 * derived from it (billing writes them through accounts' index on every transition), so the
 * permissions code keeps reading one place. At most one subscription per member is live (not
 * expired): the "sticky" one the portal shows.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's ids (Stripe: cus_…, sub_…); null for manual subscriptions. */
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id"),
    /** The plan paid for now, and the one a scheduled downgrade switches to at recur_at. */
    planId: text("plan_id").notNull(),
    nextPlanId: text("next_plan_id"),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
    period: text("period", { enum: BILLING_PERIODS }).notNull(),
    /** The end of the paid period: the next charge, or when a cancelled subscription ends. */
    recurAt: ms("recur_at"),
    currency: text("currency").notNull().default("usd"),
    /** The price per period in the currency's smallest unit. */
    amount: integer("amount").notNull(),
    /** The card on file, as the provider summarises it; never the number. */
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    cardExp: text("card_exp"),
    cardDeleted: boolean("card_deleted").notNull().default(false),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscriptions_provider_id_key").on(t.provider, t.providerSubscriptionId),
    uniqueIndex("subscriptions_live_per_user").on(t.userId).where(sql`${t.status} <> 'expired'`),
    index("subscriptions_recur_idx").on(t.recurAt),
  ],
);

/**
 * Every change to a subscription or order, append-only: a provider's webhook event (its id makes
 * a replay a no-op), an administrator's action, the re-sync's repair. The state can be rebuilt and
 * audited from it.
 */
export const billingEvents = pgTable(
  "billing_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's event id (Stripe evt_…), or one Hearth makes for its own actions. */
    providerEventId: text("provider_event_id").notNull(),
    type: text("type").notNull(),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The administrator behind a manual action. */
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    payload: jsonb("payload").notNull().default({}),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("billing_events_provider_event_key").on(t.provider, t.providerEventId),
    index("billing_events_subscription_idx").on(t.subscriptionId),
  ],
);

export const ORDER_STATUSES = ["pending", "requires_action", "approved", "failed"] as const;

/**
 * One checkout attempt (§3 Order response): what was priced, the personal details given, and
 * where the payment stands (a 3-D Secure challenge leaves it `requires_action`).
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    providerPaymentId: text("provider_payment_id"),
    planId: text("plan_id").notNull(),
    offerId: text("offer_id"),
    couponCode: text("coupon_code"),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    currency: text("currency").notNull().default("usd"),
    subtotal: integer("subtotal").notNull(),
    discount: integer("discount").notNull().default(0),
    tax: integer("tax").notNull().default(0),
    total: integer("total").notNull(),
    /** first_name, last_name, email, country, state, postal_code as given at checkout. */
    billingDetails: jsonb("billing_details").notNull().default({}),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    errorMessage: text("error_message"),
    createdAt: ms("created_at").notNull().defaultNow(),
    updatedAt: ms("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_provider_payment_key").on(t.provider, t.providerPaymentId),
    index("orders_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Coupon codes an administrator issues (the manual provider; Stripe mirrors them as promotion
 * codes): a percent or an amount off, for the first period or every one.
 */
export const coupons = pgTable(
  "coupons",
  {
    code: text("code").primaryKey(),
    percentOff: integer("percent_off"),
    amountOff: integer("amount_off"),
    currency: text("currency").notNull().default("usd"),
    duration: text("duration", { enum: ["once", "forever"] })
      .notNull()
      .default("once"),
    /** Plans it applies to; empty means every plan. */
    planIds: jsonb("plan_ids").$type<string[]>().notNull().default([]),
    maxRedemptions: integer("max_redemptions"),
    redeemed: integer("redeemed").notNull().default(0),
    expiresAt: ms("expires_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("coupons_one_discount", sql`(${t.percentOff} IS NULL) <> (${t.amountOff} IS NULL)`),
    check("coupons_percent_range", sql`${t.percentOff} IS NULL OR ${t.percentOff} BETWEEN 1 AND 100`),
  ],
);

/** A member's link to a pledge platform (Patreon first): an active pledge maps to a tier. */
export const pledgeLinks = pgTable(
  "pledge_links",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    service: text("service").notNull(),
    externalUserId: text("external_user_id").notNull(),
    /** The tier the pledge grants now; null when no active pledge was found. */
    role: text("role", { enum: ["minimal", "basic", "premium"] }),
    checkedAt: ms("checked_at").notNull().defaultNow(),
    createdAt: ms("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("pledge_links_user_service_key").on(t.userId, t.service),
    uniqueIndex("pledge_links_external_key").on(t.service, t.externalUserId),
  ],
);

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type BillingEventRow = typeof billingEvents.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type PledgeLinkRow = typeof pledgeLinks.$inferSelect;

import { brandOf, checkCard, declinedError, TEST_CARDS } from "./cards.ts";
import { int, invalid, mergeMetadata, need, obj, type Params, str, type Value } from "./form.ts";
import type { Store } from "./store.ts";
import type { Address, Coupon, Customer, PaymentMethod, Price, PromotionCode } from "./types.ts";

/** A plan to seed as a Stripe price whose lookup_key is the plan id. */
export interface PlanSeed {
  planId: string;
  amount: number;
  currency: string;
  period: "monthly" | "annual";
}

/** A promotion code customers can type, and the coupon behind it. */
export interface PromotionSeed {
  code: string;
  percentOff?: number;
  /** In the smallest unit of `currency` (default usd). */
  amountOff?: number;
  currency?: string;
  /** `once` applies to the first invoice only. */
  duration?: "forever" | "once";
  /** False seeds an inactive code (one Stripe would no longer accept). */
  active?: boolean;
}

export function seedPrice(store: Store, plan: PlanSeed): Price {
  const product = store.id("prod");
  return store.put({
    id: store.id("price"),
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: store.now(),
    currency: plan.currency,
    livemode: false,
    lookup_key: plan.planId,
    metadata: {},
    nickname: plan.planId,
    product,
    recurring: {
      interval: plan.period === "annual" ? "year" : "month",
      interval_count: 1,
      usage_type: "licensed",
      meter: null,
    },
    tax_behavior: "exclusive",
    type: "recurring",
    unit_amount: plan.amount,
    unit_amount_decimal: String(plan.amount),
  });
}

export function seedPromotion(store: Store, seed: PromotionSeed): PromotionCode {
  const coupon: Coupon = store.put({
    id: store.id("coupon").replace("coupon_", ""),
    object: "coupon",
    amount_off: seed.amountOff ?? null,
    currency: seed.amountOff ? (seed.currency ?? "usd") : null,
    duration: seed.duration ?? "forever",
    name: seed.code,
    percent_off: seed.amountOff ? null : (seed.percentOff ?? 10),
    valid: true,
  });
  return store.put({
    id: store.id("promo"),
    object: "promotion_code",
    active: seed.active ?? true,
    code: seed.code,
    created: store.now(),
    customer: null,
    expires_at: null,
    livemode: false,
    max_redemptions: null,
    metadata: {},
    promotion: { type: "coupon", coupon: coupon.id },
    restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
    times_redeemed: 0,
  });
}

const noAddress: Address = {
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
};

export function addressFrom(value: Value | undefined): Address | null {
  if (value === undefined || value === "") return null;
  const a = obj(value);
  const field = (k: string) => str(a[k]) || null;
  return {
    city: field("city"),
    country: field("country"),
    line1: field("line1"),
    line2: field("line2"),
    postal_code: field("postal_code"),
    state: field("state"),
  };
}

export function createCustomer(store: Store, params: Params): Customer {
  const customer: Customer = store.put({
    id: store.id("cus"),
    object: "customer",
    address: addressFrom(params.address),
    created: store.now(),
    email: str(params.email) ?? null,
    name: str(params.name) ?? null,
    invoice_settings: { default_payment_method: null },
    livemode: false,
    metadata: mergeMetadata({}, params.metadata),
  });
  return updateCustomer(store, customer.id, { invoice_settings: params.invoice_settings ?? {} });
}

export function updateCustomer(store: Store, id: string, params: Params): Customer {
  const customer = store.need(id, "customer");
  if (params.email !== undefined) customer.email = str(params.email) || null;
  if (params.name !== undefined) customer.name = str(params.name) || null;
  if (params.address !== undefined) customer.address = addressFrom(params.address);
  customer.metadata = mergeMetadata(customer.metadata, params.metadata);
  const pm = str(obj(params.invoice_settings).default_payment_method);
  if (pm !== undefined) {
    if (pm && store.get(pm, "payment_method")?.customer !== customer.id) {
      throw invalid(
        `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
        "invoice_settings[default_payment_method]",
        "resource_missing",
      );
    }
    customer.invoice_settings.default_payment_method = pm || null;
  }
  return customer;
}

/**
 * `metadata['key']:'value'` and `email:'value'` clauses joined by AND: what Stripe's search
 * query language needs for finding a customer.
 */
export function searchCustomers(store: Store, query: string): Customer[] {
  const clauses = query.split(/\s+AND\s+/i).map((clause) => {
    const m = clause.trim().match(/^(?:metadata\[['"](.+?)['"]\]|(email|name)):['"](.*)['"]$/);
    if (!m) throw invalid(`Invalid search query: ${query}`, "query");
    return { metadataKey: m[1], field: m[2] as "email" | "name" | undefined, value: m[3] ?? "" };
  });
  return store
    .all("customer")
    .filter((c) =>
      clauses.every((q) =>
        q.metadataKey ? c.metadata[q.metadataKey] === q.value : q.field ? c[q.field] === q.value : false,
      ),
    );
}

/** POST /v1/payment_methods, as Stripe.js sends it with the publishable key. */
export function createPaymentMethod(store: Store, params: Params): PaymentMethod {
  if (str(params.type) !== "card") throw invalid("Only card PaymentMethods are supported here.", "type");
  const card = obj(params.card);
  const number = need(card, "number").replace(/\s+/g, "");
  const expMonth = int(card.exp_month, "card[exp_month]") ?? 0;
  const expYear = checkCard({
    number,
    exp_month: expMonth,
    exp_year: int(card.exp_year, "card[exp_year]") ?? 0,
    cvc: str(card.cvc) ?? "",
  });
  const details = obj(params.billing_details);
  const pm: PaymentMethod = store.put({
    id: store.id("pm"),
    object: "payment_method",
    billing_details: {
      address: addressFrom(details.address ?? {}) ?? noAddress,
      email: str(details.email) ?? null,
      name: str(details.name) ?? null,
      phone: str(details.phone) ?? null,
    },
    card: {
      brand: brandOf(number),
      country: "US",
      exp_month: expMonth,
      exp_year: expYear,
      fingerprint: Buffer.from(number).toString("base64url").slice(0, 16),
      funding: "credit",
      last4: number.slice(-4),
    },
    created: store.now(),
    customer: null,
    livemode: false,
    metadata: {},
    type: "card",
  });
  store.cardNumbers.set(pm.id, number);
  return pm;
}

export function attachPaymentMethod(store: Store, id: string, params: Params): PaymentMethod {
  const pm = store.need(id, "payment_method");
  const customer = store.need(need(params, "customer"), "customer", "customer");
  if (pm.customer && pm.customer !== customer.id) {
    throw invalid(
      "The payment method you provided has already been attached to a customer.",
      "payment_method",
    );
  }
  // Attaching checks the card with its bank: the always-declined test card fails here.
  if (store.cardNumbers.get(pm.id) === TEST_CARDS.declined) throw declinedError();
  pm.customer = customer.id;
  return pm;
}

/**
 * The shapes the stand-in keeps, as Stripe's API (2026-10-28.endive) returns them: only the fields
 * the adapter and a checkout page read are modelled, plus what makes the JSON look like Stripe's.
 * Ids refer to other objects as strings; `expand[]` replaces them when rendering.
 */

export type Metadata = Record<string, string>;

export interface ListObject<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  url: string;
}

export interface Address {
  city: string | null;
  country: string | null;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  state: string | null;
}

export interface Customer {
  id: string;
  object: "customer";
  address: Address | null;
  created: number;
  email: string | null;
  name: string | null;
  invoice_settings: { default_payment_method: string | null };
  livemode: false;
  metadata: Metadata;
}

export interface PaymentMethod {
  id: string;
  object: "payment_method";
  billing_details: { address: Address; email: string | null; name: string | null; phone: string | null };
  card: {
    brand: string;
    country: string;
    exp_month: number;
    exp_year: number;
    fingerprint: string;
    funding: "credit";
    last4: string;
  };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Metadata;
  type: "card";
}

export interface Price {
  id: string;
  object: "price";
  active: boolean;
  billing_scheme: "per_unit";
  created: number;
  currency: string;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: { interval: "month" | "year"; interval_count: number; usage_type: "licensed"; meter: null };
  tax_behavior: "exclusive";
  type: "recurring";
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface Coupon {
  id: string;
  object: "coupon";
  amount_off: number | null;
  currency: string | null;
  duration: "forever" | "once";
  name: string | null;
  percent_off: number | null;
  valid: boolean;
}

export interface PromotionCode {
  id: string;
  object: "promotion_code";
  active: boolean;
  code: string;
  created: number;
  customer: null;
  expires_at: null;
  livemode: false;
  max_redemptions: null;
  metadata: Metadata;
  promotion: { type: "coupon"; coupon: string };
  restrictions: { first_time_transaction: false; minimum_amount: null; minimum_amount_currency: null };
  times_redeemed: number;
}

export interface Discount {
  id: string;
  object: "discount";
  customer: string | null;
  promotion_code: string | null;
  source: { type: "coupon"; coupon: string };
  start: number;
  end: null;
  subscription: string | null;
}

export interface SubscriptionItem {
  id: string;
  object: "subscription_item";
  created: number;
  current_period_end: number;
  current_period_start: number;
  metadata: Metadata;
  price: Price;
  quantity: number;
  subscription: string;
}

export interface Subscription {
  id: string;
  object: "subscription";
  automatic_tax: { enabled: boolean; disabled_reason: null; liability: null };
  billing_cycle_anchor: number;
  billing_mode: { type: "flexible" };
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  collection_method: "charge_automatically";
  created: number;
  currency: string;
  customer: string;
  default_payment_method: string | null;
  discounts: string[];
  ended_at: number | null;
  items: ListObject<SubscriptionItem>;
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  payment_settings: { save_default_payment_method: string | null; payment_method_types: string[] | null };
  pending_update: null;
  schedule: string | null;
  start_date: number;
  status: "incomplete" | "incomplete_expired" | "active" | "past_due" | "canceled" | "unpaid";
}

export interface InvoiceLine {
  id: string;
  object: "line_item";
  amount: number;
  currency: string;
  description: string;
  period: { start: number; end: number };
  pricing: {
    type: "price_details";
    price_details: { price: string; product: string };
    unit_amount_decimal: string;
  };
  quantity: number;
  subscription: string | null;
  parent: {
    type: "subscription_item_details";
    subscription_item_details: {
      proration: boolean;
      subscription: string | null;
      subscription_item: string | null;
    };
  };
  taxes: never[];
}

export interface Invoice {
  id: string;
  object: "invoice";
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  automatic_tax: { enabled: boolean; status: "complete" | null };
  billing_reason: "subscription_create" | "subscription_cycle" | "subscription_update" | "upcoming";
  collection_method: "charge_automatically";
  created: number;
  currency: string;
  customer: string | null;
  customer_address: Address | null;
  discounts: string[];
  lines: ListObject<InvoiceLine>;
  livemode: false;
  next_payment_attempt: number | null;
  parent: {
    type: "subscription_details";
    quote_details: null;
    subscription_details: { metadata: Metadata; subscription: string };
  } | null;
  period_end: number;
  period_start: number;
  status: "draft" | "open" | "paid" | "void";
  status_transitions: { finalized_at: number | null; paid_at: number | null; voided_at: number | null };
  subtotal: number;
  total: number;
  total_discount_amounts: { amount: number; discount: string }[];
  total_taxes: {
    amount: number;
    tax_behavior: "exclusive";
    taxability_reason: "standard_rated";
    taxable_amount: number;
    type: "tax_rate_details";
    tax_rate_details: { tax_rate: string };
  }[];
}

export interface InvoicePayment {
  id: string;
  object: "invoice_payment";
  amount_paid: number | null;
  amount_requested: number;
  created: number;
  currency: string;
  invoice: string;
  is_default: boolean;
  livemode: false;
  payment: { type: "payment_intent"; payment_intent: string };
  status: "open" | "paid" | "canceled";
  status_transitions: { canceled_at: number | null; paid_at: number | null };
}

export interface PaymentError {
  type: "card_error" | "invalid_request_error";
  code: string;
  decline_code?: string;
  message: string;
  payment_method?: PaymentMethod;
}

export interface PaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  canceled_at: number | null;
  client_secret: string;
  confirmation_method: "automatic";
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: PaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  next_action:
    | { type: "redirect_to_url"; redirect_to_url: { url: string; return_url: string } }
    | { type: "use_stripe_sdk"; use_stripe_sdk: { type: "three_d_secure_redirect"; stripe_js: string } }
    | null;
  payment_method: string | null;
  payment_method_types: string[];
  setup_future_usage: "off_session" | null;
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "succeeded" | "canceled";
}

export interface SchedulePhase {
  discounts: { coupon: string | null; discount: string | null; promotion_code: string | null }[];
  end_date: number;
  items: { price: string; quantity: number; metadata: Metadata }[];
  metadata: Metadata;
  start_date: number;
}

export interface SubscriptionSchedule {
  id: string;
  object: "subscription_schedule";
  created: number;
  current_phase: { start_date: number; end_date: number } | null;
  customer: string;
  end_behavior: "release" | "cancel";
  livemode: false;
  metadata: Metadata;
  phases: SchedulePhase[];
  released_at: number | null;
  released_subscription: string | null;
  status: "active" | "released" | "canceled" | "completed";
  subscription: string | null;
}

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export type StoredObject =
  | Customer
  | PaymentMethod
  | Price
  | Coupon
  | PromotionCode
  | Discount
  | Subscription
  | Invoice
  | InvoicePayment
  | PaymentIntent
  | SubscriptionSchedule;

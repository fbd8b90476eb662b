import {
  attachPaymentMethod,
  createCustomer,
  createPaymentMethod,
  searchCustomers,
  updateCustomer,
} from "./catalog.ts";
import { bool, int, invalid, list, obj, type Params, str } from "./form.ts";
import type { Payments } from "./payments.ts";
import { preview } from "./preview.ts";
import type { Schedules } from "./schedules.ts";
import { listOf, type Store } from "./store.ts";
import type { Subscriptions } from "./subscriptions.ts";

/** Parameters a route accepts: `true` for a leaf, a nested schema for an object or an array of them. */
type Schema = { [key: string]: true | Schema };

const leaves = (...keys: string[]): Schema => Object.fromEntries(keys.map((k) => [k, true]));
const page = leaves("limit", "starting_after", "ending_before", "created", "expand");
const address = leaves("city", "country", "line1", "line2", "postal_code", "state");
const discount = leaves("coupon", "discount", "promotion_code");
const automaticTax = { enabled: true, liability: true } as Schema;
const customerFields: Schema = {
  ...leaves("description", "email", "name", "phone", "metadata", "expand", "tax_exempt", "preferred_locales"),
  address,
  invoice_settings: leaves("default_payment_method", "custom_fields", "footer", "rendering_options"),
};
const subscriptionItem: Schema = {
  ...leaves("id", "price", "quantity", "metadata", "deleted"),
  discounts: discount,
};
const subscriptionCommon: Schema = {
  ...leaves(
    "default_payment_method",
    "description",
    "expand",
    "metadata",
    "off_session",
    "proration_behavior",
  ),
  ...leaves("payment_behavior", "cancel_at_period_end", "cancel_at", "collection_method", "days_until_due"),
  automatic_tax: automaticTax,
  discounts: discount,
  items: subscriptionItem,
  payment_settings: leaves("payment_method_options", "payment_method_types", "save_default_payment_method"),
};
const phase: Schema = {
  ...leaves(
    "start_date",
    "end_date",
    "metadata",
    "proration_behavior",
    "default_payment_method",
    "description",
  ),
  automatic_tax: automaticTax,
  discounts: discount,
  duration: leaves("interval", "interval_count"),
  items: { ...leaves("price", "quantity", "metadata"), discounts: discount },
};

export function checkParams(params: Params, schema: Schema, prefix = "") {
  for (const [key, value] of Object.entries(params)) {
    const rule = schema[key];
    const name = prefix ? `${prefix}[${key}]` : key;
    if (!rule) throw invalid(`Received unknown parameter: ${name}`, name, "parameter_unknown");
    if (rule === true) continue;
    const nested = Array.isArray(value) ? value : [value];
    nested.forEach((entry, i) => {
      if (entry && typeof entry === "object" && !Array.isArray(entry)) {
        checkParams(entry, rule, Array.isArray(value) ? `${name}[${i}]` : name);
      }
    });
  }
}

function oneOf(params: Params, key: string, allowed: string[]) {
  const value = str(params[key]);
  if (value !== undefined && !allowed.includes(value)) {
    throw invalid(`Invalid ${key}: must be one of ${allowed.join(", ")}`, key);
  }
}

export interface RouteContext {
  params: Params;
  path: string[];
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  pattern: RegExp;
  schema: Schema;
  /** Stripe.js calls it from the browser with the publishable key. */
  publishable?: boolean;
  run: (ctx: RouteContext) => unknown;
}

/** Exactly the REST routes the adapter (and a checkout page's Stripe.js) uses. */
export function routes(store: Store, payments: Payments, subs: Subscriptions, schedules: Schedules): Route[] {
  const id = (ctx: RouteContext) => ctx.path[0] ?? "";
  const limit = (params: Params) => Math.min(100, int(params.limit, "limit") ?? 10);
  return [
    {
      method: "POST",
      pattern: /^\/v1\/customers$/,
      schema: { ...customerFields, payment_method: true },
      run: ({ params }) => createCustomer(store, params),
    },
    {
      method: "GET",
      pattern: /^\/v1\/customers$/,
      schema: { ...page, email: true },
      run: ({ params }) => {
        const email = str(params.email);
        const found = store.all("customer").filter((c) => email === undefined || c.email === email);
        return listOf(found.reverse().slice(0, limit(params)), "/v1/customers");
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/customers\/search$/,
      schema: leaves("query", "limit", "page", "expand"),
      run: ({ params }) => ({
        object: "search_result",
        data: searchCustomers(store, str(params.query) ?? "").slice(0, limit(params)),
        has_more: false,
        next_page: null,
        url: "/v1/customers/search",
      }),
    },
    {
      method: "GET",
      pattern: /^\/v1\/customers\/(cus_\w+)$/,
      schema: leaves("expand"),
      run: (ctx) => store.need(id(ctx), "customer"),
    },
    {
      method: "POST",
      pattern: /^\/v1\/customers\/(cus_\w+)$/,
      schema: customerFields,
      run: (ctx) => updateCustomer(store, id(ctx), ctx.params),
    },
    {
      method: "POST",
      pattern: /^\/v1\/payment_methods$/,
      publishable: true,
      schema: {
        ...leaves(
          "type",
          "metadata",
          "expand",
          "key",
          "payment_user_agent",
          "time_on_page",
          "guid",
          "muid",
          "sid",
        ),
        card: leaves("number", "exp_month", "exp_year", "cvc"),
        billing_details: { ...leaves("name", "email", "phone"), address },
      },
      run: ({ params }) => createPaymentMethod(store, params),
    },
    {
      method: "GET",
      pattern: /^\/v1\/payment_methods\/(pm_\w+)$/,
      schema: leaves("expand"),
      run: (ctx) => store.need(id(ctx), "payment_method"),
    },
    {
      method: "POST",
      pattern: /^\/v1\/payment_methods\/(pm_\w+)\/attach$/,
      schema: leaves("customer", "expand"),
      run: (ctx) => attachPaymentMethod(store, id(ctx), ctx.params),
    },
    {
      method: "GET",
      pattern: /^\/v1\/prices$/,
      schema: { ...page, ...leaves("active", "currency", "lookup_keys", "product", "type"), recurring: true },
      run: ({ params }) => {
        const keys = list(params.lookup_keys).map(String);
        const active = bool(params.active);
        const found = store
          .all("price")
          .filter(
            (p) =>
              (keys.length === 0 || keys.includes(p.lookup_key ?? "")) &&
              (active === undefined || p.active === active),
          );
        return listOf(found.slice(0, limit(params)), "/v1/prices");
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/prices\/(price_\w+)$/,
      schema: leaves("expand"),
      run: (ctx) => store.need(id(ctx), "price"),
    },
    {
      method: "GET",
      pattern: /^\/v1\/promotion_codes$/,
      schema: { ...page, ...leaves("active", "code", "coupon", "customer") },
      run: ({ params }) => {
        const code = str(params.code)?.toLowerCase();
        const active = bool(params.active);
        const found = store
          .all("promotion_code")
          .filter(
            (p) =>
              (code === undefined || p.code.toLowerCase() === code) &&
              (active === undefined || p.active === active),
          );
        return listOf(found.slice(0, limit(params)), "/v1/promotion_codes");
      },
    },
    {
      method: "POST",
      pattern: /^\/v1\/invoices\/create_preview$/,
      schema: {
        ...leaves("currency", "customer", "expand", "subscription", "preview_mode"),
        automatic_tax: automaticTax,
        customer_details: { ...leaves("tax_exempt", "tax_ids", "shipping", "tax"), address },
        discounts: discount,
        subscription_details: {
          ...leaves("proration_behavior", "proration_date", "cancel_at_period_end", "default_tax_rates"),
          items: subscriptionItem,
        },
      },
      run: ({ params }) => {
        oneOf(obj(params.subscription_details), "proration_behavior", [
          "always_invoice",
          "create_prorations",
          "none",
        ]);
        return preview(store, subs, payments, params);
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/invoices\/(in_\w+)$/,
      schema: leaves("expand"),
      run: (ctx) => store.need(id(ctx), "invoice"),
    },
    {
      method: "GET",
      pattern: /^\/v1\/invoice_payments$/,
      schema: {
        ...page,
        ...leaves("invoice", "status"),
        payment: leaves("type", "payment_intent", "payment_record"),
      },
      run: ({ params }) => {
        const payment = obj(params.payment);
        const intent = str(payment.payment_intent);
        const invoice = str(params.invoice);
        const found = store
          .all("invoice_payment")
          .filter(
            (p) =>
              (intent === undefined || p.payment.payment_intent === intent) &&
              (invoice === undefined || p.invoice === invoice),
          );
        return listOf(found.slice(0, limit(params)), "/v1/invoice_payments");
      },
    },
    {
      method: "POST",
      pattern: /^\/v1\/subscriptions$/,
      schema: { ...subscriptionCommon, customer: true },
      run: ({ params }) => {
        oneOf(params, "payment_behavior", ["allow_incomplete", "default_incomplete", "error_if_incomplete"]);
        return subs.create(params);
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/subscriptions\/(sub_\w+)$/,
      schema: leaves("expand"),
      run: (ctx) => store.need(id(ctx), "subscription"),
    },
    {
      method: "POST",
      pattern: /^\/v1\/subscriptions\/(sub_\w+)$/,
      schema: { ...subscriptionCommon, ...leaves("proration_date", "cancellation_details") },
      run: (ctx) => {
        oneOf(ctx.params, "payment_behavior", [
          "allow_incomplete",
          "default_incomplete",
          "error_if_incomplete",
        ]);
        oneOf(ctx.params, "proration_behavior", ["always_invoice", "create_prorations", "none"]);
        return subs.update(id(ctx), ctx.params);
      },
    },
    {
      method: "DELETE",
      pattern: /^\/v1\/subscriptions\/(sub_\w+)$/,
      schema: leaves("cancellation_details", "expand", "invoice_now", "prorate"),
      run: (ctx) => subs.cancel(id(ctx)),
    },
    {
      method: "GET",
      pattern: /^\/v1\/payment_intents\/(pi_\w+)$/,
      schema: leaves("expand", "client_secret"),
      run: (ctx) => store.need(id(ctx), "payment_intent"),
    },
    {
      method: "POST",
      pattern: /^\/v1\/payment_intents\/(pi_\w+)\/confirm$/,
      schema: leaves(
        "payment_method",
        "return_url",
        "off_session",
        "error_on_requires_action",
        "expand",
        "use_stripe_sdk",
      ),
      run: (ctx) =>
        payments.confirm(id(ctx), {
          paymentMethod: str(ctx.params.payment_method),
          returnUrl: str(ctx.params.return_url),
          offSession: bool(ctx.params.off_session) ?? false,
          errorOnRequiresAction: bool(ctx.params.error_on_requires_action) ?? false,
        }),
    },
    {
      method: "POST",
      pattern: /^\/v1\/subscription_schedules$/,
      schema: {
        ...leaves("from_subscription", "customer", "end_behavior", "metadata", "start_date", "expand"),
        phases: phase,
      },
      run: ({ params }) => schedules.create(params),
    },
    {
      method: "GET",
      pattern: /^\/v1\/subscription_schedules\/(sub_sched_\w+)$/,
      schema: leaves("expand"),
      run: (ctx) => store.need(id(ctx), "subscription_schedule"),
    },
    {
      method: "POST",
      pattern: /^\/v1\/subscription_schedules\/(sub_sched_\w+)$/,
      schema: { ...leaves("end_behavior", "expand", "metadata", "proration_behavior"), phases: phase },
      run: (ctx) => schedules.update(id(ctx), ctx.params),
    },
    {
      method: "POST",
      pattern: /^\/v1\/subscription_schedules\/(sub_sched_\w+)\/release$/,
      schema: leaves("expand", "preserve_cancel_date"),
      run: (ctx) => schedules.release(id(ctx)),
    },
  ];
}

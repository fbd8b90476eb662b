import { addressFrom } from "./catalog.ts";
import { bool, int, invalid, list, need, obj, type Params, str } from "./form.ts";
import type { LineInput, Payments } from "./payments.ts";
import type { Store } from "./store.ts";
import { addInterval, fullPeriod, type Subscriptions } from "./subscriptions.ts";
import type { Invoice } from "./types.ts";

/** POST /v1/invoices/create_preview: a new subscription's first invoice, or a change's. */
export function preview(store: Store, subs: Subscriptions, payments: Payments, params: Params): Invoice {
  const subId = str(params.subscription);
  const sub = subId ? store.need(subId, "subscription", "subscription") : null;
  const customerId = str(params.customer) ?? sub?.customer;
  const customer = customerId ? store.need(customerId, "customer", "customer") : null;
  const details = obj(params.subscription_details);
  const automaticTax = bool(obj(params.automatic_tax).enabled) ?? sub?.automatic_tax.enabled ?? false;
  const address = addressFrom(obj(params.customer_details).address) ?? customer?.address ?? null;
  subs.checkTaxLocation(customer, automaticTax, address);
  const discounts =
    params.discounts !== undefined
      ? subs.discountsFrom(params.discounts, customer?.id ?? null, null)
      : (sub?.discounts ?? []);
  const items = list(details.items).map((entry) => obj(entry));
  const now = store.now();
  let lines: LineInput[];
  let reason: Invoice["billing_reason"] = "upcoming";
  if (!sub) {
    const prices = items.map((item, i) =>
      store.need(need(item, "price"), "price", `subscription_details[items][${i}][price]`),
    );
    lines = prices.map((price) => ({
      description: `1 × ${price.nickname ?? price.id}`,
      amount: price.unit_amount,
      price,
      quantity: 1,
      period: { start: now, end: addInterval(now, price) },
    }));
    reason = "subscription_create";
  } else if (items.length > 0) {
    const at = int(details.proration_date, "subscription_details[proration_date]") ?? now;
    const behavior = str(details.proration_behavior) ?? "create_prorations";
    lines = items.flatMap((change, i) => {
      const item = sub.items.data.find((it) => it.id === str(change.id));
      if (!item)
        throw invalid(
          `No such subscription item: '${str(change.id)}'`,
          `subscription_details[items][${i}][id]`,
        );
      const price = store.need(need(change, "price"), "price", `subscription_details[items][${i}][price]`);
      const proration = subs.prorations(item, price, at);
      if (behavior === "always_invoice") return proration.lines;
      const next = fullPeriod(item, price, proration.end, addInterval(proration.end, price));
      return behavior === "none" ? [next] : [...proration.lines, next];
    });
  } else {
    lines = sub.items.data.map((item) =>
      fullPeriod(item, item.price, item.current_period_end, addInterval(item.current_period_end, item.price)),
    );
  }
  const currency = str(params.currency) ?? sub?.currency ?? lines[0]?.price.currency ?? "usd";
  return payments.buildInvoice({
    customer: customer?.id ?? null,
    address,
    subscription: sub,
    currency,
    lines,
    discounts,
    automaticTax,
    reason,
    preview: true,
  });
}

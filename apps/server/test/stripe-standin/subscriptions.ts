import {
  bool,
  int,
  invalid,
  list,
  mergeMetadata,
  need,
  obj,
  type Params,
  StripeFailure,
  str,
  type Value,
} from "./form.ts";
import type { LineInput, Payments } from "./payments.ts";
import { listOf, type Store } from "./store.ts";
import type { Customer, Discount, Invoice, Price, Subscription, SubscriptionItem } from "./types.ts";

/** The end of one interval of `price` from `start` (calendar months, as Stripe bills them). */
export function addInterval(start: number, price: Price): number {
  return addMonths(start, (price.recurring.interval === "year" ? 12 : 1) * price.recurring.interval_count);
}

export function addMonths(start: number, months: number): number {
  const at = new Date(start * 1000);
  at.setUTCMonth(at.getUTCMonth() + months);
  return Math.floor(at.getTime() / 1000);
}

export const fullPeriod = (item: SubscriptionItem, price: Price, start: number, end: number): LineInput => ({
  description: `${item.quantity} × ${price.nickname ?? price.id}`,
  amount: price.unit_amount * item.quantity,
  price,
  quantity: item.quantity,
  period: { start, end },
});

/**
 * Subscriptions: creation with its first invoice (payment_behavior default_incomplete, or an
 * immediate attempt), updates (cancel at period end, card, metadata, a price change with
 * prorations), cancellation, invoice previews, and renewals when a test advances the clock.
 */
export class Subscriptions {
  constructor(
    private store: Store,
    private payments: Payments,
  ) {}

  /** `discounts[]` entries (a promotion code or a coupon) as Discount objects on the customer. */
  discountsFrom(value: Value | undefined, customer: string | null, subscription: string | null): string[] {
    const { store } = this;
    return list(value).map((entry, i) => {
      const d = obj(entry);
      const existing = str(d.discount);
      if (existing) return store.need(existing, "discount", `discounts[${i}][discount]`).id;
      const promoId = str(d.promotion_code);
      const promo = promoId ? store.need(promoId, "promotion_code", `discounts[${i}][promotion_code]`) : null;
      if (promo && !promo.active) {
        throw invalid(`This promotion code cannot be redeemed because it is inactive.`, `discounts[${i}]`);
      }
      const couponId = promo?.promotion.coupon ?? str(d.coupon);
      if (!couponId)
        throw invalid("Each discount needs a coupon, a discount or a promotion_code.", `discounts[${i}]`);
      const coupon = store.need(couponId, "coupon", `discounts[${i}][coupon]`);
      const discount: Discount = store.put({
        id: store.id("di"),
        object: "discount",
        customer,
        promotion_code: promo?.id ?? null,
        source: { type: "coupon", coupon: coupon.id },
        start: store.now(),
        end: null,
        subscription,
      });
      return discount.id;
    });
  }

  private ownedCard(customer: Customer, pm: string, param: string) {
    if (this.store.get(pm, "payment_method")?.customer !== customer.id) {
      throw invalid(
        `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
        param,
        "resource_missing",
      );
    }
  }

  checkTaxLocation(customer: Customer | null, enabled: boolean, address = customer?.address) {
    if (enabled && !address?.country) {
      throw invalid(
        "The customer's location isn't recognized. Set a valid customer address in order to automatically calculate tax.",
        undefined,
        "customer_tax_location_invalid",
      );
    }
  }

  cardOf(sub: Subscription): string | null {
    return (
      sub.default_payment_method ??
      this.store.get(sub.customer, "customer")?.invoice_settings.default_payment_method ??
      null
    );
  }

  create(params: Params): Subscription {
    const { store, payments } = this;
    const customer = store.need(need(params, "customer"), "customer", "customer");
    const prices = list(params.items).map((item, i) =>
      store.need(need(obj(item), "price"), "price", `items[${i}][price]`),
    );
    const first = prices[0];
    if (!first) throw invalid("Missing required param: items.", "items", "parameter_missing");
    const pm = str(params.default_payment_method);
    if (pm) this.ownedCard(customer, pm, "default_payment_method");
    const automaticTax = bool(obj(params.automatic_tax).enabled) ?? false;
    this.checkTaxLocation(customer, automaticTax);
    const now = store.now();
    const end = addInterval(now, first);
    const id = store.id("sub");
    const settings = obj(params.payment_settings);
    const sub: Subscription = {
      id,
      object: "subscription",
      automatic_tax: { enabled: automaticTax, disabled_reason: null, liability: null },
      billing_cycle_anchor: now,
      billing_mode: { type: "flexible" },
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: "charge_automatically",
      created: now,
      currency: first.currency,
      customer: customer.id,
      default_payment_method: pm ?? null,
      discounts: [],
      ended_at: null,
      items: listOf(
        prices.map((price, i) => ({
          id: store.id("si"),
          object: "subscription_item" as const,
          created: now,
          current_period_end: end,
          current_period_start: now,
          metadata: {},
          price: structuredClone(price),
          quantity: int(obj(list(params.items)[i]).quantity, `items[${i}][quantity]`) ?? 1,
          subscription: id,
        })),
        `/v1/subscription_items?subscription=${id}`,
      ),
      latest_invoice: null,
      livemode: false,
      metadata: mergeMetadata({}, params.metadata),
      payment_settings: {
        save_default_payment_method: str(settings.save_default_payment_method) ?? "off",
        payment_method_types: list(settings.payment_method_types).map(String),
      },
      pending_update: null,
      schedule: null,
      start_date: now,
      status: "incomplete",
    };
    sub.discounts = this.discountsFrom(params.discounts, customer.id, id);
    store.put(sub);
    const invoice = this.invoiceFor(
      sub,
      sub.items.data.map((item) => fullPeriod(item, item.price, now, end)),
      "subscription_create",
    );
    const pi = payments.finalize(invoice, this.cardOf(sub));
    sub.latest_invoice = invoice.id;
    if (invoice.status === "paid") sub.status = "active";
    store.emit("customer.subscription.created", sub);
    const behavior = str(params.payment_behavior) ?? "allow_incomplete";
    const card = this.cardOf(sub);
    if (pi && card && behavior !== "default_incomplete") {
      try {
        payments.charge(pi, card, {
          offSession: bool(params.off_session) ?? false,
          errorOnRequiresAction: behavior === "error_if_incomplete",
        });
      } catch (failure) {
        if (behavior === "error_if_incomplete") {
          store.objects.delete(sub.id);
          payments.voidOpen(invoice.id);
        }
        if (!(failure instanceof StripeFailure) || behavior === "error_if_incomplete") throw failure;
      }
    }
    return sub;
  }

  invoiceFor(sub: Subscription, lines: LineInput[], reason: Invoice["billing_reason"]): Invoice {
    const customer = this.store.need(sub.customer, "customer");
    return this.payments.buildInvoice({
      customer: customer.id,
      address: customer.address,
      subscription: sub,
      currency: sub.currency,
      lines,
      discounts: sub.discounts,
      automaticTax: sub.automatic_tax.enabled,
      reason,
    });
  }

  /** The two lines of a price change at `at`: credit for the old price's unused time, the new price's share. */
  prorations(item: SubscriptionItem, next: Price, at: number): { lines: LineInput[]; end: number } {
    const old = item.price;
    const start = item.current_period_start;
    const end = item.current_period_end;
    const share = Math.max(0, end - at) / Math.max(1, end - start);
    const resets = old.recurring.interval !== next.recurring.interval;
    const newEnd = resets ? addInterval(at, next) : end;
    const lines: LineInput[] = [
      {
        description: `Unused time on ${old.nickname ?? old.id}`,
        amount: -Math.round(old.unit_amount * item.quantity * share),
        price: old,
        quantity: item.quantity,
        period: { start: at, end },
        proration: true,
        item: item.id,
      },
      {
        description: `Remaining time on ${next.nickname ?? next.id}`,
        amount: resets
          ? next.unit_amount * item.quantity
          : Math.round(next.unit_amount * item.quantity * share),
        price: next,
        quantity: item.quantity,
        period: { start: at, end: newEnd },
        proration: true,
        item: item.id,
      },
    ];
    return { lines, end: newEnd };
  }

  update(id: string, params: Params): Subscription {
    const { store } = this;
    const sub = store.need(id, "subscription");
    const before = structuredClone(sub);
    const ended = sub.status === "canceled" || sub.status === "incomplete_expired";
    if (
      ended &&
      Object.keys(params).some((k) => !["metadata", "expand", "cancellation_details"].includes(k))
    ) {
      throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
    }
    const cancelling = params.cancel_at_period_end !== undefined || params.cancel_at !== undefined;
    if (sub.schedule && cancelling) {
      throw invalid(
        `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
      );
    }
    const customer = store.need(sub.customer, "customer");
    const pm = str(params.default_payment_method);
    if (pm) this.ownedCard(customer, pm, "default_payment_method");
    const changes = list(params.items).map((entry) => obj(entry));
    if (changes.length > 0) this.changeItems(sub, changes, params);
    if (pm) sub.default_payment_method = pm;
    sub.metadata = mergeMetadata(sub.metadata, params.metadata);
    const cancelAtEnd = bool(params.cancel_at_period_end);
    if (cancelAtEnd !== undefined) {
      // Stripe also shows the end as cancel_at.
      sub.cancel_at_period_end = cancelAtEnd;
      sub.cancel_at = cancelAtEnd ? (sub.items.data[0]?.current_period_end ?? null) : null;
    }
    const automaticTax = bool(obj(params.automatic_tax).enabled);
    if (automaticTax !== undefined) {
      this.checkTaxLocation(customer, automaticTax);
      sub.automatic_tax.enabled = automaticTax;
    }
    const previous = store.changedFrom(before, sub);
    if (Object.keys(previous).length > 0) store.emit("customer.subscription.updated", sub, previous);
    return sub;
  }

  /** A price change: always_invoice charges the prorated difference now; else it waits for renewal. */
  private changeItems(sub: Subscription, changes: Params[], params: Params) {
    const { store, payments } = this;
    if (sub.status !== "active" && sub.status !== "past_due") {
      throw invalid(`A subscription with status ${sub.status} cannot change its items.`, "items");
    }
    const behavior = str(params.proration_behavior) ?? "create_prorations";
    const paymentBehavior = str(params.payment_behavior) ?? "allow_incomplete";
    const at = int(params.proration_date, "proration_date") ?? store.now();
    const saved = structuredClone(sub.items);
    const lines: LineInput[] = [];
    changes.forEach((change, i) => {
      const item = sub.items.data.find((it) => it.id === str(change.id));
      if (!item)
        throw invalid(
          `No such subscription item: '${str(change.id)}'`,
          `items[${i}][id]`,
          "resource_missing",
        );
      const price = store.need(need(change, "price"), "price", `items[${i}][price]`);
      const proration = this.prorations(item, price, at);
      const resets = proration.end !== item.current_period_end;
      if (behavior === "always_invoice" || resets) lines.push(...proration.lines);
      if (resets) {
        item.current_period_start = at;
        sub.billing_cycle_anchor = at;
      }
      item.current_period_end = proration.end;
      item.price = structuredClone(price);
    });
    if (lines.length === 0) return;
    const invoice = this.invoiceFor(sub, lines, "subscription_update");
    const card = this.cardOf(sub);
    const pi = payments.finalize(invoice, card);
    sub.latest_invoice = invoice.id;
    if (!pi) return;
    try {
      if (!card) throw invalid("This customer has no attached payment source or default payment method.");
      if (paymentBehavior === "default_incomplete") return;
      payments.charge(pi, card, {
        offSession: bool(params.off_session) ?? false,
        errorOnRequiresAction: paymentBehavior === "error_if_incomplete",
      });
    } catch (failure) {
      if (paymentBehavior !== "error_if_incomplete") {
        sub.status = "past_due";
        return;
      }
      // error_if_incomplete: the update does not happen.
      sub.items = saved;
      sub.latest_invoice = null;
      payments.voidOpen(invoice.id);
      throw failure;
    }
  }

  /** DELETE /v1/subscriptions/:id: ends it now. */
  cancel(id: string): Subscription {
    const { store } = this;
    const sub = store.need(id, "subscription");
    if (sub.status === "canceled") throw invalid("This subscription has already been canceled.");
    const before = structuredClone(sub);
    sub.status = "canceled";
    sub.canceled_at = store.now();
    sub.ended_at = store.now();
    const schedule = sub.schedule ? store.get(sub.schedule, "subscription_schedule") : undefined;
    if (schedule) {
      schedule.status = "canceled";
      schedule.current_phase = null;
    }
    this.payments.voidOpen(sub.latest_invoice);
    store.emit("customer.subscription.deleted", sub, store.changedFrom(before, sub));
    return sub;
  }
}

import { authenticationRequiredError, declinedError, verdict } from "./cards.ts";
import { invalid, StripeFailure } from "./form.ts";
import { listOf, type Store } from "./store.ts";
import type {
  Address,
  Invoice,
  InvoiceLine,
  PaymentError,
  PaymentIntent,
  Price,
  Subscription,
} from "./types.ts";

/** Stripe's message when a 3-D Secure challenge fails. */
export const AUTHENTICATION_FAILED =
  "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.";

export interface LineInput {
  description: string;
  amount: number;
  price: Price;
  quantity: number;
  period: { start: number; end: number };
  /** Credit or charge for part of a period, after a price change. */
  proration?: boolean;
  item?: string;
}

export interface InvoiceInput {
  customer: string | null;
  address: Address | null;
  subscription: Subscription | null;
  currency: string;
  lines: LineInput[];
  discounts: string[];
  automaticTax: boolean;
  reason: Invoice["billing_reason"];
  preview?: boolean;
}

/** How a charge is attempted: with the customer present (3-D Secure possible) or not. */
export interface ChargeMode {
  offSession: boolean;
  returnUrl?: string;
  errorOnRequiresAction?: boolean;
}

/**
 * Invoices and the PaymentIntents that pay them: amounts (coupon, then tax on the rest), the
 * charge each test card gets, 3-D Secure, and what a paid or failed invoice does to its
 * subscription, with the events Stripe sends for each.
 */
export class Payments {
  constructor(
    private store: Store,
    /** Percent by "US-NY" (country-state) or "DE" (country), for automatic tax. */
    private taxRates: Record<string, number>,
  ) {}

  taxPercent(address: Address | null, enabled: boolean): number {
    if (!enabled || !address?.country) return 0;
    return this.taxRates[`${address.country}-${address.state ?? ""}`] ?? this.taxRates[address.country] ?? 0;
  }

  buildInvoice(input: InvoiceInput): Invoice {
    const { store } = this;
    const now = store.now();
    const subtotal = input.lines.reduce((sum, l) => sum + l.amount, 0);
    const discountAmounts: Invoice["total_discount_amounts"] = [];
    for (const id of input.discounts) {
      const discount = store.get(id, "discount");
      const coupon = discount && store.get(discount.source.coupon, "coupon");
      if (!discount || !coupon || subtotal <= 0) continue;
      if (coupon.duration === "once" && input.reason !== "subscription_create") continue;
      const left = subtotal - discountAmounts.reduce((sum, d) => sum + d.amount, 0);
      const amount = coupon.percent_off
        ? Math.round((subtotal * coupon.percent_off) / 100)
        : Math.min(coupon.amount_off ?? 0, left);
      discountAmounts.push({ amount: Math.min(amount, left), discount: discount.id });
    }
    const discount = discountAmounts.reduce((sum, d) => sum + d.amount, 0);
    const taxable = Math.max(0, subtotal - discount);
    const percent = this.taxPercent(input.address, input.automaticTax);
    const tax = Math.round((taxable * percent) / 100);
    const total = subtotal - discount + tax;
    const id = input.preview ? `upcoming_${store.id("in")}` : store.id("in");
    const lines: InvoiceLine[] = input.lines.map((l) => ({
      id: store.id("il"),
      object: "line_item",
      amount: l.amount,
      currency: input.currency,
      description: l.description,
      period: l.period,
      pricing: {
        type: "price_details",
        price_details: { price: l.price.id, product: l.price.product },
        unit_amount_decimal: l.price.unit_amount_decimal,
      },
      quantity: l.quantity,
      subscription: input.subscription?.id ?? null,
      parent: {
        type: "subscription_item_details",
        subscription_item_details: {
          proration: l.proration ?? false,
          subscription: input.subscription?.id ?? null,
          subscription_item: l.item ?? null,
        },
      },
      taxes: [],
    }));
    const periods = input.lines.map((l) => l.period);
    return {
      id,
      object: "invoice",
      amount_due: Math.max(0, total),
      amount_paid: 0,
      amount_remaining: Math.max(0, total),
      attempt_count: 0,
      attempted: false,
      automatic_tax: { enabled: input.automaticTax, status: input.automaticTax ? "complete" : null },
      billing_reason: input.reason,
      collection_method: "charge_automatically",
      created: now,
      currency: input.currency,
      customer: input.customer,
      customer_address: input.address,
      discounts: input.discounts,
      lines: listOf(lines, `/v1/invoices/${id}/lines`),
      livemode: false,
      next_payment_attempt: null,
      parent: input.subscription
        ? {
            type: "subscription_details",
            quote_details: null,
            subscription_details: {
              metadata: { ...input.subscription.metadata },
              subscription: input.subscription.id,
            },
          }
        : null,
      period_end: Math.max(now, ...periods.map((p) => p.end)),
      period_start: Math.min(now, ...periods.map((p) => p.start)),
      status: "draft",
      status_transitions: { finalized_at: null, paid_at: null, voided_at: null },
      subtotal,
      total,
      total_discount_amounts: discountAmounts,
      total_taxes:
        tax > 0
          ? [
              {
                amount: tax,
                tax_behavior: "exclusive",
                taxability_reason: "standard_rated",
                taxable_amount: taxable,
                type: "tax_rate_details",
                tax_rate_details: { tax_rate: `txr_${input.address?.country ?? "xx"}` },
              },
            ]
          : [],
    };
  }

  /** Stores and finalizes an invoice: paid at once when nothing is due, else a PaymentIntent waits. */
  finalize(invoice: Invoice, paymentMethod: string | null): PaymentIntent | null {
    const { store } = this;
    store.put(invoice);
    invoice.status = "open";
    invoice.status_transitions.finalized_at = store.now();
    store.emit("invoice.finalized", invoice);
    if (invoice.amount_due === 0) {
      this.markPaid(invoice, null);
      return null;
    }
    const pi: PaymentIntent = store.put({
      id: store.id("pi"),
      object: "payment_intent",
      amount: invoice.amount_due,
      amount_received: 0,
      canceled_at: null,
      client_secret: "",
      confirmation_method: "automatic",
      created: store.now(),
      currency: invoice.currency,
      customer: invoice.customer,
      description:
        invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: {},
      next_action: null,
      payment_method: paymentMethod,
      payment_method_types: ["card"],
      setup_future_usage: invoice.billing_reason === "subscription_create" ? "off_session" : null,
      status: paymentMethod ? "requires_confirmation" : "requires_payment_method",
    });
    pi.client_secret = `${pi.id}_secret_${store.id("s").slice(2)}`;
    const payment = store.put({
      id: store.id("inpay"),
      object: "invoice_payment",
      amount_paid: null,
      amount_requested: invoice.amount_due,
      created: store.now(),
      currency: invoice.currency,
      invoice: invoice.id,
      is_default: true,
      livemode: false,
      payment: { type: "payment_intent", payment_intent: pi.id },
      status: "open",
      status_transitions: { canceled_at: null, paid_at: null },
    });
    store.invoicePayments.set(invoice.id, [payment.id]);
    store.intentInvoice.set(pi.id, invoice.id);
    return pi;
  }

  /** POST /v1/payment_intents/:id/confirm. */
  confirm(id: string, params: { paymentMethod?: string } & ChargeMode): PaymentIntent {
    const pi = this.store.need(id, "payment_intent");
    if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(pi.status)) {
      throw invalid(
        `You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`,
        undefined,
        "payment_intent_unexpected_state",
      );
    }
    const pm = params.paymentMethod ?? pi.payment_method;
    if (!pm) {
      throw invalid(
        "You cannot confirm this PaymentIntent because it's missing a payment method.",
        "payment_method",
        "payment_intent_unexpected_state",
      );
    }
    const method = this.store.need(pm, "payment_method", "payment_method");
    if (pi.customer && method.customer !== pi.customer) {
      throw invalid(
        `The provided PaymentMethod ${pm} does not belong to the PaymentIntent's customer.`,
        "payment_method",
      );
    }
    this.charge(pi, pm, params);
    return pi;
  }

  /** Attempts a charge; a refusal throws Stripe's 402 after recording it on the intent. */
  charge(pi: PaymentIntent, paymentMethod: string, mode: ChargeMode) {
    const { store } = this;
    pi.payment_method = paymentMethod;
    const number = store.cardNumbers.get(paymentMethod) ?? "";
    const outcome = verdict(number, store.authenticated.has(paymentMethod));
    if (outcome === "decline") this.refuse(pi, declinedError());
    if (outcome === "authenticate") {
      if (mode.offSession || mode.errorOnRequiresAction) this.refuse(pi, authenticationRequiredError());
      const url = `${store.baseUrl()}/3ds/${pi.id}`;
      pi.status = "requires_action";
      pi.next_action = mode.returnUrl
        ? { type: "redirect_to_url", redirect_to_url: { url, return_url: mode.returnUrl } }
        : { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: url } };
      store.emit("payment_intent.requires_action", pi);
      return;
    }
    this.succeed(pi);
  }

  succeed(pi: PaymentIntent) {
    const { store } = this;
    pi.status = "succeeded";
    pi.amount_received = pi.amount;
    pi.latest_charge = store.id("ch");
    pi.last_payment_error = null;
    pi.next_action = null;
    store.emit("payment_intent.succeeded", pi);
    const invoice = store.get(store.intentInvoice.get(pi.id) ?? "", "invoice");
    if (invoice) this.markPaid(invoice, pi.payment_method);
  }

  /** Records a failed attempt on the intent and its invoice, then throws the 402 Stripe answers. */
  refuse(pi: PaymentIntent, failure: StripeFailure): never {
    this.recordFailure(pi, {
      type: "card_error",
      code: failure.body.code ?? "card_declined",
      ...(typeof failure.body.decline_code === "string" ? { decline_code: failure.body.decline_code } : {}),
      message: failure.message,
    });
    const method = pi.payment_method ? this.store.get(pi.payment_method, "payment_method") : undefined;
    throw new StripeFailure(failure.status, {
      ...failure.body,
      payment_intent: this.store.render(pi),
      ...(method ? { payment_method: this.store.render(method) } : {}),
    });
  }

  recordFailure(pi: PaymentIntent, error: PaymentError) {
    const { store } = this;
    const method = pi.payment_method ? store.get(pi.payment_method, "payment_method") : undefined;
    pi.status = "requires_payment_method";
    pi.next_action = null;
    pi.last_payment_error = { ...error, ...(method ? { payment_method: structuredClone(method) } : {}) };
    store.emit("payment_intent.payment_failed", pi);
    const invoice = store.get(store.intentInvoice.get(pi.id) ?? "", "invoice");
    if (!invoice) return;
    invoice.attempt_count += 1;
    invoice.attempted = true;
    invoice.next_payment_attempt =
      invoice.billing_reason === "subscription_cycle" ? store.now() + 3 * 86400 : null;
    store.emit("invoice.payment_failed", invoice);
  }

  /** The 3-D Secure page's answer; the browser then goes back to the intent's return_url. */
  authenticate(id: string, complete: boolean): string | null {
    const pi = this.store.need(id, "payment_intent");
    if (pi.status !== "requires_action")
      throw invalid("This PaymentIntent is not waiting for authentication.");
    const returnUrl =
      pi.next_action?.type === "redirect_to_url" ? pi.next_action.redirect_to_url.return_url : null;
    if (complete) {
      if (pi.payment_method) this.store.authenticated.add(pi.payment_method);
      this.succeed(pi);
    } else {
      this.recordFailure(pi, {
        type: "invalid_request_error",
        code: "payment_intent_authentication_failure",
        message: AUTHENTICATION_FAILED,
      });
    }
    return returnUrl;
  }

  /** A paid invoice: its payment settles, and an unpaid subscription becomes active. */
  markPaid(invoice: Invoice, paymentMethod: string | null) {
    const { store } = this;
    invoice.status = "paid";
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = store.now();
    for (const id of store.invoicePayments.get(invoice.id) ?? []) {
      const payment = store.get(id, "invoice_payment");
      if (!payment) continue;
      payment.status = "paid";
      payment.amount_paid = payment.amount_requested;
      payment.status_transitions.paid_at = store.now();
    }
    store.emit("invoice.paid", invoice);
    const sub = store.get(invoice.parent?.subscription_details.subscription ?? "", "subscription");
    if (!sub) return;
    const before = structuredClone(sub);
    if (["incomplete", "past_due", "unpaid"].includes(sub.status) && sub.latest_invoice === invoice.id) {
      sub.status = "active";
    }
    if (
      invoice.billing_reason === "subscription_create" &&
      paymentMethod &&
      sub.payment_settings.save_default_payment_method === "on_subscription"
    ) {
      sub.default_payment_method = paymentMethod;
    }
    const previous = store.changedFrom(before, sub);
    if (Object.keys(previous).length > 0) store.emit("customer.subscription.updated", sub, previous);
  }

  /** Voids a subscription's open invoice (a cancelled subscription owes nothing more). */
  voidOpen(invoiceId: string | null) {
    const { store } = this;
    const invoice = invoiceId ? store.get(invoiceId, "invoice") : undefined;
    if (invoice?.status !== "open") return;
    invoice.status = "void";
    invoice.amount_remaining = 0;
    invoice.status_transitions.voided_at = store.now();
    for (const id of store.invoicePayments.get(invoice.id) ?? []) {
      const payment = store.get(id, "invoice_payment");
      const pi = payment && store.get(payment.payment.payment_intent, "payment_intent");
      if (payment) payment.status = "canceled";
      if (pi && pi.status !== "succeeded") {
        pi.status = "canceled";
        pi.canceled_at = store.now();
        pi.next_action = null;
      }
    }
    store.emit("invoice.voided", invoice);
  }
}

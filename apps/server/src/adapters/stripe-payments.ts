import Stripe from "stripe";
import {
  type BillingCustomer,
  type OrderOutcome,
  PaymentError,
  type PaymentProvider,
  type PriceQuote,
  type ProviderEvent,
  type ProviderSubscription,
} from "../ports/payments.ts";
import {
  INVALID_COUPON,
  idOf,
  monthlyRate,
  NEEDS_CONFIRMATION,
  NEXT_PLAN_KEY,
  outcomeOf,
  PLAN_KEY,
  paymentIntentOfInvoice,
  prorationDue,
  subscriptionOfInvoice,
  toProviderSubscription,
  USER_KEY,
} from "./stripe-map.ts";
import {
  addressOf,
  attachCard,
  confirmPayment,
  customerFor,
  isStripeError,
  NO_SAVED_CARD,
  refuseTaxLocation,
  savedCardOf,
  scheduleDowngrade,
} from "./stripe-steps.ts";

export interface StripePaymentsOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another origin than https://api.stripe.com (the tests' stand-in): its protocol, host and port. */
  apiUrl?: string | null;
  /** Where the browser loads Stripe.js (default https://js.stripe.com/v3/). */
  scriptUrl?: string;
  /** Stripe Tax computes tax on quotes and subscriptions (Stripe Tax must be set up in the account). */
  automaticTax: boolean;
}

/** Prices change rarely; a minute keeps checkout from asking Stripe for every quote. */
const PRICE_TTL_MS = 60_000;
/** Every subscription answer carries its card, so the port's view is complete. */
const SUBSCRIPTION_EXPAND = ["default_payment_method"];

/**
 * Card payments through Stripe's official SDK (decision 012), on the API version the SDK pins.
 * Plans are prices whose lookup_key is the plan id, coupons are promotion codes. A subscription's
 * first invoice is paid by confirming its PaymentIntent server-side with the card element's
 * PaymentMethod; a bank that wants 3-D Secure answers with a page to send the browser to.
 * Upgrades are prorated and invoiced at once; downgrades wait for the period's end in a
 * subscription schedule (Stripe's documented way), mirrored in the subscription's metadata.
 */
export class StripePayments implements PaymentProvider {
  readonly name = "stripe" as const;
  private stripe: Stripe;
  private prices = new Map<string, { price: Stripe.Price; at: number }>();

  constructor(private opts: StripePaymentsOptions) {
    const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
    const protocol = api?.protocol === "http:" ? "http" : "https";
    this.stripe = new Stripe(opts.secretKey, {
      appInfo: { name: "Hearth" },
      maxNetworkRetries: 2,
      ...(api ? { host: api.hostname, port: api.port || (protocol === "http" ? 80 : 443), protocol } : {}),
    });
  }

  client() {
    return {
      publishableKey: this.opts.publishableKey,
      scriptUrl: this.opts.scriptUrl ?? "https://js.stripe.com/v3/",
    };
  }

  private async priceFor(planId: string): Promise<Stripe.Price> {
    const cached = this.prices.get(planId);
    if (cached && Date.now() - cached.at < PRICE_TTL_MS) return cached.price;
    const { data } = await this.stripe.prices.list({ lookup_keys: [planId], active: true, limit: 1 });
    const price = data[0];
    if (!price?.recurring || price.unit_amount === null) {
      throw new PaymentError(
        `Stripe has no active recurring price with the lookup key ${planId}; create one to sell this plan.`,
        "not_configured",
      );
    }
    this.prices.set(planId, { price, at: Date.now() });
    return price;
  }

  /** An active promotion code by what the customer typed (Stripe matches it case-insensitively). */
  private async promotion(code: string): Promise<Stripe.PromotionCode | null> {
    const { data } = await this.stripe.promotionCodes.list({ code, active: true, limit: 1 });
    return data[0] ?? null;
  }

  async quote(input: {
    planId: string;
    coupon: string | null;
    customer: BillingCustomer;
  }): Promise<PriceQuote> {
    const price = await this.priceFor(input.planId);
    const promo = input.coupon ? await this.promotion(input.coupon) : null;
    const preview = (promotionCode: string | null) =>
      this.stripe.invoices
        .createPreview({
          currency: price.currency,
          customer_details: { address: addressOf(input.customer) },
          subscription_details: { items: [{ price: price.id }] },
          automatic_tax: { enabled: this.opts.automaticTax },
          ...(promotionCode ? { discounts: [{ promotion_code: promotionCode }] } : {}),
        })
        .catch(refuseTaxLocation);
    let valid = promo !== null;
    let invoice: Stripe.Invoice;
    try {
      invoice = await preview(promo?.id ?? null);
    } catch (error) {
      // A code Stripe will not apply here (its restrictions) is as invalid as an unknown one.
      if (!promo || !(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      valid = false;
      invoice = await preview(null);
    }
    const sum = (amounts: { amount: number }[] | null) =>
      (amounts ?? []).reduce((total, a) => total + a.amount, 0);
    return {
      subtotal: invoice.subtotal,
      discount: sum(invoice.total_discount_amounts),
      tax: this.opts.automaticTax ? sum(invoice.total_taxes) : 0,
      total: invoice.total,
      currency: invoice.currency,
      coupon: input.coupon ? { code: input.coupon, valid, error: valid ? null : INVALID_COUPON } : null,
    };
  }

  async order(input: {
    planId: string;
    coupon: string | null;
    customer: BillingCustomer;
    paymentToken: string | null;
    idempotencyKey: string;
    returnUrl: string;
  }): Promise<OrderOutcome> {
    const key = input.idempotencyKey;
    const price = await this.priceFor(input.planId);
    const promo = input.coupon ? await this.promotion(input.coupon) : null;
    if (input.coupon && !promo) return { status: "failed", paymentId: null, message: INVALID_COUPON };
    const customer = await customerFor(this.stripe, input.customer, key);
    let paymentToken = input.paymentToken;
    if (paymentToken === null) {
      // The card on file: the one attachCard made the customer's default for invoices.
      paymentToken = await savedCardOf(this.stripe, customer);
      if (!paymentToken) return { status: "failed", paymentId: null, message: NO_SAVED_CARD };
    } else {
      const refused = await attachCard(this.stripe, paymentToken, customer, `${key}:attach`);
      if (refused) return { status: "failed", paymentId: null, message: refused };
    }
    let subscription: Stripe.Subscription;
    try {
      // default_incomplete: Stripe finalizes the first invoice and leaves its payment to us.
      subscription = await this.stripe.subscriptions.create(
        {
          customer,
          items: [{ price: price.id }],
          default_payment_method: paymentToken,
          payment_behavior: "default_incomplete",
          payment_settings: {
            save_default_payment_method: "on_subscription",
            payment_method_types: ["card"],
          },
          automatic_tax: { enabled: this.opts.automaticTax },
          metadata: { [USER_KEY]: input.customer.userId, [PLAN_KEY]: input.planId },
          ...(promo ? { discounts: [{ promotion_code: promo.id }] } : {}),
          expand: ["latest_invoice.payments"],
        },
        { idempotencyKey: `${key}:subscription` },
      );
    } catch (error) {
      if (promo && isStripeError(error) && error.param?.startsWith("discounts")) {
        return { status: "failed", paymentId: null, message: INVALID_COUPON };
      }
      refuseTaxLocation(error);
    }
    const invoice = typeof subscription.latest_invoice === "string" ? null : subscription.latest_invoice;
    const intent = invoice ? paymentIntentOfInvoice(invoice) : null;
    if (!intent) {
      // Nothing to charge (a 100% coupon): Stripe paid the invoice itself.
      if (invoice?.status !== "paid")
        throw new Error(`Stripe started ${subscription.id} without a payment to confirm.`);
      const card = await this.stripe.paymentMethods.retrieve(paymentToken);
      return {
        status: "approved",
        paymentId: invoice.id,
        subscriptionId: subscription.id,
        card: toProviderSubscription({ ...subscription, default_payment_method: card }).card,
      };
    }
    const outcome = await confirmPayment(this.stripe, intent, paymentToken, subscription.id, {
      returnUrl: input.returnUrl,
      idempotencyKey: `${key}:confirm`,
    });
    if (outcome.status === "failed") {
      // A declined first payment leaves nothing to keep; Stripe would expire it in 23 hours anyway.
      await this.stripe.subscriptions.cancel(subscription.id).catch(() => undefined);
    }
    return outcome;
  }

  async paymentOutcome(paymentId: string): Promise<OrderOutcome> {
    if (paymentId.startsWith("in_")) {
      // An order with nothing to charge answered its invoice's id.
      const invoice = await this.stripe.invoices.retrieve(paymentId);
      const subscriptionId = subscriptionOfInvoice(invoice);
      if (invoice.status === "paid" && subscriptionId) {
        return { status: "approved", paymentId, subscriptionId, card: null };
      }
      return { status: "failed", paymentId, message: "The payment did not go through." };
    }
    const intent = await this.stripe.paymentIntents.retrieve(paymentId, { expand: ["payment_method"] });
    if (intent.status !== "succeeded") return outcomeOf(intent, null);
    // Since API basil an intent no longer names its invoice; the invoice payment links them.
    const { data } = await this.stripe.invoicePayments.list({
      payment: { type: "payment_intent", payment_intent: intent.id },
      expand: ["data.invoice"],
      limit: 1,
    });
    const invoice = data[0]?.invoice;
    return outcomeOf(
      intent,
      invoice && typeof invoice !== "string" && !invoice.deleted ? subscriptionOfInvoice(invoice) : null,
    );
  }

  private async subscription(id: string, expand = SUBSCRIPTION_EXPAND): Promise<Stripe.Subscription> {
    return this.stripe.subscriptions.retrieve(id, { expand });
  }

  private update(id: string, params: Stripe.SubscriptionUpdateParams) {
    return this.stripe.subscriptions.update(id, { ...params, expand: SUBSCRIPTION_EXPAND });
  }

  /** Drops a scheduled change (Stripe refuses cancellation changes while a schedule manages one). */
  private async release(sub: Stripe.Subscription) {
    const schedule = idOf(sub.schedule);
    if (schedule) await this.stripe.subscriptionSchedules.release(schedule);
  }

  async cancel(subscriptionId: string): Promise<ProviderSubscription> {
    await this.release(await this.subscription(subscriptionId));
    const sub = await this.update(subscriptionId, {
      cancel_at_period_end: true,
      metadata: { [NEXT_PLAN_KEY]: "" },
    });
    return toProviderSubscription(sub);
  }

  async uncancel(subscriptionId: string): Promise<ProviderSubscription> {
    return toProviderSubscription(await this.update(subscriptionId, { cancel_at_period_end: false }));
  }

  async changePlan(subscriptionId: string, planId: string): Promise<ProviderSubscription> {
    const [sub, target] = await Promise.all([this.subscription(subscriptionId), this.priceFor(planId)]);
    const item = sub.items.data[0];
    if (!item) throw new PaymentError("This subscription has no plan to change.", "invalid");
    if (item.price.id === target.id) {
      await this.release(sub);
      return toProviderSubscription(await this.update(sub.id, { metadata: { [NEXT_PLAN_KEY]: "" } }));
    }
    if (monthlyRate(target) > monthlyRate(item.price)) {
      await this.release(sub);
      try {
        // error_if_incomplete: a refused charge leaves the subscription as it was.
        const upgraded = await this.update(sub.id, {
          items: [{ id: item.id, price: target.id }],
          proration_behavior: "always_invoice",
          payment_behavior: "error_if_incomplete",
          metadata: { [PLAN_KEY]: planId, [NEXT_PLAN_KEY]: "" },
        });
        return toProviderSubscription(upgraded);
      } catch (error) {
        if (!isStripeError(error) || error.statusCode !== 402) throw error;
        const needsAction =
          error.code === "authentication_required" || String(error.code).includes("requires_action");
        throw needsAction
          ? new PaymentError(NEEDS_CONFIRMATION, "requires_action")
          : new PaymentError(error.message, "declined");
      }
    }
    return toProviderSubscription(
      await scheduleDowngrade(this.stripe, sub, target, planId, this.opts.automaticTax),
    );
  }

  async previewChange(
    subscriptionId: string,
    planId: string,
  ): Promise<{ amountDue: number; currency: string }> {
    const [sub, target] = await Promise.all([this.subscription(subscriptionId), this.priceFor(planId)]);
    const item = sub.items.data[0];
    if (!item || item.price.id === target.id || monthlyRate(target) <= monthlyRate(item.price)) {
      return { amountDue: 0, currency: target.currency };
    }
    const preview = await this.stripe.invoices.createPreview({
      customer: idOf(sub.customer) ?? undefined,
      subscription: sub.id,
      subscription_details: {
        items: [{ id: item.id, price: target.id }],
        proration_behavior: "always_invoice",
        proration_date: Math.floor(Date.now() / 1000),
      },
    });
    return { amountDue: prorationDue(preview), currency: preview.currency };
  }

  async changeCard(subscriptionId: string, paymentToken: string): Promise<ProviderSubscription> {
    const sub = await this.subscription(subscriptionId);
    const refused = await attachCard(this.stripe, paymentToken, idOf(sub.customer) ?? "");
    if (refused) throw new PaymentError(refused, "declined");
    return toProviderSubscription(await this.update(sub.id, { default_payment_method: paymentToken }));
  }

  async chargeRebill(subscriptionId: string, returnUrl?: string): Promise<OrderOutcome> {
    const sub = await this.subscription(subscriptionId, ["latest_invoice.payments", "customer"]);
    const invoice = typeof sub.latest_invoice === "string" ? null : sub.latest_invoice;
    const intent = invoice?.status === "open" ? paymentIntentOfInvoice(invoice) : null;
    if (!intent)
      return {
        status: "failed",
        paymentId: null,
        message: "There is no overdue payment on this subscription.",
      };
    const customer = typeof sub.customer === "string" || sub.customer.deleted ? null : sub.customer;
    // Invoices fall back to the customer's default card when the subscription names none.
    const card = idOf(sub.default_payment_method) ?? idOf(customer?.invoice_settings.default_payment_method);
    if (!card)
      return {
        status: "failed",
        paymentId: null,
        message: "There is no card on this subscription. Add one first.",
      };
    return confirmPayment(this.stripe, intent, card, sub.id, { returnUrl });
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature ?? "", this.opts.webhookSecret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new PaymentError(
          "This webhook's signature does not match; it did not come from Stripe.",
          "bad_signature",
        );
      }
      throw error;
    }
    const base = {
      id: event.id,
      type: event.type,
      subscription: null,
      subscriptionId: null,
      paymentId: null,
    };
    const object = event.data.object as { object?: string };
    switch (object.object) {
      case "subscription": {
        const subscription = toProviderSubscription(object as Stripe.Subscription);
        return { ...base, subscription, subscriptionId: subscription.id };
      }
      case "invoice":
        return { ...base, subscriptionId: subscriptionOfInvoice(object as Stripe.Invoice) };
      case "payment_intent":
        return { ...base, paymentId: (object as Stripe.PaymentIntent).id };
      default:
        return base;
    }
  }

  async fetchSubscription(subscriptionId: string): Promise<ProviderSubscription | null> {
    try {
      return toProviderSubscription(await this.subscription(subscriptionId));
    } catch (error) {
      if (isStripeError(error, "resource_missing")) return null;
      throw error;
    }
  }
}

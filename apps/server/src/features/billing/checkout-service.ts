import type {
  CheckoutCalculateRequest,
  CheckoutCalculation,
  CheckoutOptions,
  CheckoutOrder,
  ManualPaymentRequest,
  NewOrderRequest,
  OrderResponse,
} from "@hearth/contract";
import { postalCodeProblem } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { forbidden, HttpError, notFound } from "../../http/errors.ts";
import {
  type BillingCustomer,
  type OrderOutcome,
  PaymentError,
  type PaymentProvider,
  type PriceQuote,
} from "../../ports/payments.ts";
import type { Viewer } from "../accounts/index.ts";
import { lineName, onFileOf, toCardClient, toCheckoutOrder, toOrderResponse } from "./checkout-present.ts";
import { isCountry, stateFor } from "./countries.ts";
import { findCoupon, INVALID_COUPON, judgeCoupon } from "./coupons.ts";
import { markReceived } from "./manual-orders.ts";
import { insertOrder, orderById, orderByPayment, updateOrder } from "./order-queries.ts";
import { decimal, type PlanSpec } from "./plans.ts";
import { liveSubscription } from "./queries.ts";
import type { OrderRow } from "./schema.ts";
import type { BillingService } from "./service.ts";

/** A sale's price for a plan's first period (the site feature's configured offers). */
export interface SaleOffer {
  offerId: string;
  planId: string;
  /** The first period's price in the smallest unit. */
  amount: number;
}
export type OfferLookup = (offerId: string, now: Date) => SaleOffer | null;

export interface CheckoutDeps {
  db: Db;
  billing: BillingService;
  /** The card provider (Stripe), or null where the site takes no cards. */
  card: PaymentProvider | null;
  /** The operator's instructions for paying by arrangement; null: manual payments are not offered. */
  manualInstructions: string | null;
  offers: OfferLookup;
}

const invalid = (path: string, message: string) =>
  new HttpError(400, "invalidRequest", message, [{ path, message }]);

type Details = CheckoutCalculateRequest | NewOrderRequest | ManualPaymentRequest;

/**
 * Checkout (issue 13): prices a plan for an address, takes card orders through the card provider
 * (3-D Secure included) or records a manual payment for an administrator to confirm, and hands
 * every paid order to the billing service, which owns the subscription and what it grants.
 */
export class CheckoutService {
  constructor(private deps: CheckoutDeps) {}

  options(): CheckoutOptions {
    const { card, manualInstructions } = this.deps;
    return {
      payment_methods: [
        ...(card ? [{ id: "card", label: "Credit or debit card" }] : []),
        ...(manualInstructions ? [{ id: "manual", label: "Pay by arrangement with the site" }] : []),
      ],
      card: card ? toCardClient(card.client()) : null,
      manual_instructions: manualInstructions,
    };
  }

  private member(viewer: Viewer) {
    if (viewer.isGuest) throw forbidden("Guests can't subscribe. Sign up for a free account first.");
  }

  /** The country, state and postal code as §5 checks them; answers the state to record. */
  private address(input: Details, { postalRequired }: { postalRequired: boolean }): string {
    if (!isCountry(input.country)) throw invalid("country", "Choose a country.");
    const state = stateFor(input.country, input.state);
    if (!state) throw invalid("state", "Choose a state or province.");
    if (input.postal_code !== undefined || postalRequired) {
      const problem = postalCodeProblem(input.country, input.postal_code ?? "");
      if (problem) throw invalid("postal_code", problem);
    }
    return state;
  }

  /** Refuses a second subscription while one is live (an unpaid one gives way). */
  private async noLiveSubscription(viewer: Viewer) {
    const live = await liveSubscription(this.deps.db, viewer.id);
    if (live && live.status !== "incomplete") {
      throw new HttpError(
        409,
        "conflict",
        "You already have a subscription. Change its plan from the subscription portal.",
      );
    }
  }

  /** The price of a plan's first period with an offer or a coupon: the card provider's, or Hearth's own. */
  private async price(
    input: Details,
    customer: BillingCustomer,
    provider: "card" | "manual",
    now: Date,
  ): Promise<{ plan: PlanSpec; quote: PriceQuote; code: string | null }> {
    const plan = this.deps.billing.plan(input.plan_id);
    let offer: SaleOffer | null = null;
    if (input.offer_id) {
      offer = this.deps.offers(input.offer_id, now);
      if (!offer || offer.planId !== plan.planId) throw invalid("offer_id", "This offer has ended.");
    }
    const promo = input.promo_code?.trim() || null;
    const card = this.deps.card;
    if (provider === "card" && card) {
      // A sale offer is a promotion code of the same name at the card provider.
      const code = offer ? offer.offerId : promo;
      return { plan, quote: await card.quote({ planId: plan.planId, coupon: code, customer }), code };
    }
    let discount = offer ? Math.max(0, plan.amount - offer.amount) : 0;
    let coupon: PriceQuote["coupon"] = null;
    if (!offer && promo) {
      const verdict = judgeCoupon(
        await findCoupon(this.deps.db, promo),
        promo,
        plan.planId,
        plan.amount,
        now,
      );
      coupon = { code: verdict.code, valid: verdict.valid, error: verdict.error };
      discount = verdict.discount;
    }
    const quote = {
      subtotal: plan.amount,
      discount,
      tax: 0,
      total: plan.amount - discount,
      currency: plan.currency,
      coupon,
    };
    return { plan, quote, code: coupon?.valid ? coupon.code : null };
  }

  private customer(viewer: Viewer, input: Details, state: string): BillingCustomer {
    const names = "first_name" in input ? `${input.first_name} ${input.last_name}` : (viewer.name ?? "");
    return {
      userId: viewer.id,
      email: input.email ?? viewer.email ?? "",
      name: names.trim(),
      country: input.country,
      state: state === "N/A" ? null : state,
      postalCode: input.postal_code ?? "",
    };
  }

  async calculate(
    viewer: Viewer,
    input: CheckoutCalculateRequest,
    now = new Date(),
  ): Promise<CheckoutCalculation> {
    this.member(viewer);
    const state = this.address(input, { postalRequired: false });
    const provider = this.deps.card ? "card" : "manual";
    const { plan, quote } = await this.price(input, this.customer(viewer, input, state), provider, now);
    return {
      line_items: [{ name: lineName(plan), amount: decimal(quote.subtotal) }],
      subtotal: decimal(quote.subtotal),
      tax: decimal(quote.tax),
      discounts: quote.coupon
        ? [{ ...quote.coupon, total: decimal(quote.discount) }]
        : input.offer_id
          ? [{ code: input.offer_id, valid: true, error: null, total: decimal(quote.discount) }]
          : [],
      total: decimal(quote.total),
      currency: quote.currency,
      on_file: await this.onFile(viewer),
    };
  }

  /** GET /api/checkout/on_file, and the calculation's on_file. */
  async onFile(viewer: Viewer): Promise<CheckoutCalculation["on_file"]> {
    this.member(viewer);
    return onFileOf(this.deps.db, viewer.id, this.deps.card?.name ?? null);
  }

  private async record(
    viewer: Viewer,
    input: NewOrderRequest | ManualPaymentRequest,
    provider: "card" | "manual",
    now: Date,
  ): Promise<{ order: OrderRow; customer: BillingCustomer; code: string | null }> {
    this.member(viewer);
    const state = this.address(input, { postalRequired: true });
    await this.noLiveSubscription(viewer);
    const customer = this.customer(viewer, input, state);
    const { plan, quote, code } = await this.price(input, customer, provider, now);
    if (quote.coupon && !quote.coupon.valid)
      throw invalid("promo_code", quote.coupon.error ?? INVALID_COUPON);
    const order = await insertOrder(this.deps.db, {
      userId: viewer.id,
      provider: provider === "card" && this.deps.card ? this.deps.card.name : "manual",
      planId: plan.planId,
      offerId: input.offer_id ?? null,
      couponCode: code,
      currency: quote.currency,
      subtotal: quote.subtotal,
      discount: quote.discount,
      tax: quote.tax,
      total: quote.total,
      billingDetails: {
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        country: input.country,
        state,
        postal_code: input.postal_code,
        platform: input.platform,
      },
    });
    return { order, customer, code };
  }

  /**
   * POST /api/checkout/new_order: a card order. `origin` is Hearth's own address as the member
   * reached it: the 3-D Secure challenge returns the browser there.
   */
  async newOrder(
    viewer: Viewer,
    input: NewOrderRequest,
    origin: string,
    now = new Date(),
  ): Promise<OrderResponse> {
    const card = this.deps.card;
    if (!card) throw new HttpError(409, "conflict", "This site does not take card payments.");
    // No token: the card on file pays (the summary's saved card), so there must be one.
    const token = input.payment_token ?? null;
    if (!token && !(await this.onFile(viewer))?.credit_card) {
      throw invalid("payment_token", "Enter a valid card, expiration date and cvv.");
    }
    const { order, customer, code } = await this.record(viewer, input, "card", now);
    let outcome: OrderOutcome;
    try {
      outcome = await card.order({
        planId: order.planId,
        coupon: code,
        customer,
        paymentToken: token,
        idempotencyKey: `order-${order.id}`,
        returnUrl: `${origin}/checkout/3ds-complete?order_id=${order.id}`,
      });
    } catch (error) {
      await updateOrder(this.deps.db, order.id, {
        status: "failed",
        errorMessage: "The payment service did not answer.",
      });
      throw error;
    }
    return this.settle(order, outcome);
  }

  /** POST /api/checkout/orders/{id}/confirm: where a challenged payment stands now. */
  async confirm(viewer: Viewer, orderId: string): Promise<OrderResponse> {
    const order = await this.own(viewer, orderId);
    const card = this.deps.card;
    if (order.status === "approved" || order.status === "failed" || !card || !order.providerPaymentId) {
      return toOrderResponse(order);
    }
    return this.settle(order, await card.paymentOutcome(order.providerPaymentId));
  }

  /** Records where a card payment stands; a paid one starts (or repairs) the subscription. */
  private async settle(order: OrderRow, outcome: OrderOutcome): Promise<OrderResponse> {
    const card = this.deps.card;
    if (outcome.status === "requires_action") {
      const row = await updateOrder(this.deps.db, order.id, {
        status: "requires_action",
        providerPaymentId: outcome.paymentId,
      });
      return { ...toOrderResponse(row), iframe_3ds_url: outcome.challengeUrl };
    }
    if (outcome.status === "failed" || !card) {
      const row = await updateOrder(this.deps.db, order.id, {
        status: "failed",
        providerPaymentId: outcome.paymentId ?? order.providerPaymentId,
        errorMessage: outcome.status === "failed" ? outcome.message : "The payment could not be taken.",
      });
      return toOrderResponse(row);
    }
    const remote = await card.fetchSubscription(outcome.subscriptionId);
    const subscription =
      remote && order.userId
        ? await this.deps.billing.syncProvider(remote, {
            id: `order:${order.id}`,
            type: "checkout.approved",
            forUser: order.userId,
          })
        : null;
    const row = await updateOrder(this.deps.db, order.id, {
      status: "approved",
      providerPaymentId: outcome.paymentId,
      subscriptionId: subscription?.id ?? order.subscriptionId,
      errorMessage: null,
    });
    return toOrderResponse(row);
  }

  /** POST /api/checkout/manual_new_payment: a pending order an administrator confirms. */
  async manualPayment(
    viewer: Viewer,
    input: ManualPaymentRequest,
    now = new Date(),
  ): Promise<{ url: string }> {
    if (!this.deps.manualInstructions) {
      throw new HttpError(409, "conflict", "This site does not take payments by arrangement.");
    }
    const { order } = await this.record(viewer, input, "manual", now);
    return { url: `/checkout/success?order_id=${order.id}` };
  }

  private async own(viewer: Viewer, orderId: string): Promise<OrderRow> {
    const order = await orderById(this.deps.db, orderId);
    if (!order || order.userId !== viewer.id) throw notFound("No such order.");
    return order;
  }

  async order(viewer: Viewer, orderId: string): Promise<CheckoutOrder> {
    return this.toCheckoutOrder(await this.own(viewer, orderId));
  }

  toCheckoutOrder(order: OrderRow): CheckoutOrder {
    return toCheckoutOrder(order, this.deps.billing.plan(order.planId), this.deps.manualInstructions);
  }

  /**
   * A verified webhook: the subscription it names is synced, and a payment it names settles the
   * order that waited on it (a member who closed the 3-D Secure dialog still gets what they paid for).
   */
  async webhook(raw: Buffer, signature: string | undefined): Promise<void> {
    const card = this.deps.card;
    if (!card) throw notFound("This site takes no card payments.");
    let event: ReturnType<PaymentProvider["parseWebhook"]>;
    try {
      event = card.parseWebhook(raw, signature);
    } catch (error) {
      if (error instanceof PaymentError && error.kind !== "bad_signature") throw error;
      throw new HttpError(400, "invalidRequest", "The webhook's signature does not match.");
    }
    if (event.paymentId) {
      const order = await orderByPayment(this.deps.db, card.name, event.paymentId);
      if (order && order.status !== "approved")
        await this.settle(order, await card.paymentOutcome(event.paymentId));
    }
    // The provider is asked for the subscription's state now rather than trusting the event's
    // copy: webhooks arrive late and out of order, and an older snapshot (say the "uncancelled"
    // one landing after the member's upgrade) would undo a newer change. Invoice events carry
    // no state at all.
    const remote = event.subscriptionId ? await card.fetchSubscription(event.subscriptionId) : null;
    if (remote) await this.deps.billing.syncProvider(remote, event);
  }

  /** Administrators: the money for a manual order arrived (manual-orders.ts). */
  markReceived(admin: Viewer, orderId: string): Promise<OrderRow> {
    return markReceived(this.deps, admin, orderId);
  }
}

/**
 * A payment provider (decision 012, issue 13): Stripe through its official SDK, or `manual`
 * (an administrator records payments). Billing's service speaks only this interface; the
 * provider's own objects never leave its adapter. Amounts are in the currency's smallest unit.
 *
 * Plans map to the provider's prices by plan id (Stripe: a price whose lookup_key is the plan id),
 * coupons to its promotion codes. Card numbers never reach Hearth: the browser hands them to the
 * provider's own card element (`client()` says where its script is) and Hearth sees a token.
 */

export type ProviderName = "stripe" | "manual";

export interface CardSummary {
  brand: string;
  last4: string;
  /** "MM/YY" */
  exp: string;
}

export interface BillingCustomer {
  userId: string;
  email: string;
  name: string;
  country: string;
  state: string | null;
  postalCode: string;
}

export interface PriceQuote {
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  currency: string;
  /** The coupon as the provider judged it; null when none was given. */
  coupon: { code: string; valid: boolean; error: string | null } | null;
}

/** What a card order came to: paid, waiting for a 3-D Secure challenge, or refused. */
export type OrderOutcome =
  | { status: "approved"; paymentId: string; subscriptionId: string; card: CardSummary | null }
  | { status: "requires_action"; paymentId: string; challengeUrl: string }
  | { status: "failed"; paymentId: string | null; message: string };

/** The provider's view of a subscription, for webhooks and the periodic re-sync. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  planId: string;
  status: "incomplete" | "active" | "cancelled" | "grace" | "expired";
  recurAt: Date | null;
  /** Null when the provider's report did not say (Stripe's webhooks carry only the card's id). */
  card: CardSummary | null;
  /** The plan a scheduled change switches to at recurAt. */
  nextPlanId: string | null;
}

/** One event the provider reported, already verified; `id` makes replays no-ops. */
export interface ProviderEvent {
  id: string;
  /** The provider's own event type, e.g. Stripe's `invoice.paid`. */
  type: string;
  /** The subscription's state when the event carries it whole (Stripe: customer.subscription.*). */
  subscription: ProviderSubscription | null;
  /**
   * The subscription the event is about, also when it does not carry its state (Stripe's invoice
   * events): fetchSubscription gives the rest.
   */
  subscriptionId: string | null;
  paymentId: string | null;
}

/**
 * A refusal with a sentence a person can read: a declined card (`declined`), a payment the bank
 * wants confirmed where no challenge can be shown (`requires_action`), input the provider refused
 * (`invalid`), a webhook whose signature does not match (`bad_signature`), or a provider set up
 * without what Hearth needs, e.g. no price for a plan (`not_configured`).
 */
export class PaymentError extends Error {
  constructor(
    message: string,
    readonly kind: "declined" | "requires_action" | "invalid" | "bad_signature" | "not_configured",
  ) {
    super(message);
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** What the browser needs to show the provider's card element; never a secret. */
  client(): { publishableKey: string; scriptUrl: string };
  /** Prices a plan for a customer's address with an optional coupon (tax where enabled). */
  quote(input: { planId: string; coupon: string | null; customer: BillingCustomer }): Promise<PriceQuote>;
  /**
   * Charges the first period and starts the subscription; `paymentToken` is the card element's
   * token, or null for the customer's card on file (`failed` with a sentence when there is none).
   */
  order(input: {
    planId: string;
    coupon: string | null;
    customer: BillingCustomer;
    paymentToken: string | null;
    idempotencyKey: string;
    /** Where the 3-D Secure challenge returns the browser (Hearth's own page, which reads paymentOutcome). */
    returnUrl: string;
  }): Promise<OrderOutcome>;
  /** Where an order stands after a 3-D Secure challenge (or any time later). */
  paymentOutcome(paymentId: string): Promise<OrderOutcome>;
  cancel(subscriptionId: string): Promise<ProviderSubscription>;
  uncancel(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * Upgrades are prorated and charged now (PaymentError `declined` or `requires_action` when that
   * charge does not go through, and nothing changes); downgrades take effect at the period's end.
   * Changing to the current plan drops a scheduled change.
   */
  changePlan(subscriptionId: string, planId: string): Promise<ProviderSubscription>;
  /** What an upgrade would charge now (0 for a change that waits for the next period). */
  previewChange(subscriptionId: string, planId: string): Promise<{ amountDue: number; currency: string }>;
  /** The card element's token becomes the card future charges use (PaymentError when refused). */
  changeCard(subscriptionId: string, paymentToken: string): Promise<ProviderSubscription>;
  /**
   * Retries the overdue invoice of a subscription in grace. With `returnUrl`, a payment the bank
   * wants confirmed answers `requires_action` (as order does); without one it fails with a sentence.
   */
  chargeRebill(subscriptionId: string, returnUrl?: string): Promise<OrderOutcome>;
  /** Verifies a webhook's signature and reads its event; a mismatch is PaymentError `bad_signature`. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
  /** The provider's current state of one subscription (the re-sync's repair). */
  fetchSubscription(subscriptionId: string): Promise<ProviderSubscription | null>;
}

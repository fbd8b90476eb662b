import Stripe from "stripe";
import { type BillingCustomer, type OrderOutcome, PaymentError } from "../ports/payments.ts";
import { idOf, NEEDS_CONFIRMATION, NEXT_PLAN_KEY, outcomeOf, PLAN_KEY, USER_KEY } from "./stripe-map.ts";

/** The steps of StripePayments that take several calls to Stripe. */

export const isStripeError = (error: unknown, code?: string): error is Stripe.errors.StripeError =>
  error instanceof Stripe.errors.StripeError && (code === undefined || error.code === code);

/** Stripe Tax cannot place the address: the member's to correct, not a server fault. */
export function refuseTaxLocation(error: unknown): never {
  if (isStripeError(error, "customer_tax_location_invalid")) {
    throw new PaymentError(
      "We could not find this address for tax. Please check the country, state and postal code.",
      "invalid",
    );
  }
  throw error;
}

export function addressOf(customer: BillingCustomer): Stripe.AddressParam {
  return {
    country: customer.country,
    postal_code: customer.postalCode,
    ...(customer.state ? { state: customer.state } : {}),
  };
}

/** The member's Stripe customer (metadata hearth_user_id), found or made, with their current address. */
export async function customerFor(
  stripe: Stripe,
  customer: BillingCustomer,
  idempotencyKey: string,
): Promise<string> {
  const details = { email: customer.email, name: customer.name, address: addressOf(customer) };
  const byEmail = await stripe.customers.list({ email: customer.email, limit: 100 });
  let id = byEmail.data.find((c) => c.metadata[USER_KEY] === customer.userId)?.id;
  if (!id) {
    // Search finds a member whose e-mail changed; it lags writes by a little, so it comes second.
    const query = `metadata['${USER_KEY}']:'${customer.userId.replace(/['\\]/g, "\\$&")}'`;
    id = (await stripe.customers.search({ query, limit: 1 })).data[0]?.id;
  }
  if (id) {
    await stripe.customers.update(id, details);
    return id;
  }
  const created = await stripe.customers.create(
    { ...details, metadata: { [USER_KEY]: customer.userId } },
    { idempotencyKey: `${idempotencyKey}:customer` },
  );
  return created.id;
}

/**
 * Attaches the card element's PaymentMethod (the bank checks the card here) and makes it the
 * customer's default for invoices; answers the refusal's sentence, or null.
 */
export async function attachCard(
  stripe: Stripe,
  paymentMethod: string,
  customer: string,
  idempotencyKey?: string,
): Promise<string | null> {
  try {
    await stripe.paymentMethods.attach(
      paymentMethod,
      { customer },
      idempotencyKey ? { idempotencyKey } : undefined,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) return error.message;
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      return "This card could not be used. Please enter it again.";
    }
    throw error;
  }
  await stripe.customers.update(customer, { invoice_settings: { default_payment_method: paymentMethod } });
  return null;
}

export const NO_SAVED_CARD = "There is no saved card to pay with. Press Change and enter a card.";

/** The customer's card on file (their default for invoices), or null. */
export async function savedCardOf(stripe: Stripe, customer: string): Promise<string | null> {
  const found = await stripe.customers.retrieve(customer);
  if (found.deleted) return null;
  const card = found.invoice_settings.default_payment_method;
  return typeof card === "string" ? card : (card?.id ?? null);
}

/**
 * Confirms an invoice's PaymentIntent with a card. With a return URL, a bank that wants 3-D
 * Secure answers a page to send the browser to (next_action redirect_to_url); without one that
 * attempt fails (error_on_requires_action) rather than wait for a challenge nobody will see.
 */
export async function confirmPayment(
  stripe: Stripe,
  intent: string,
  paymentMethod: string,
  subscriptionId: string | null,
  opts: { returnUrl?: string; idempotencyKey?: string },
): Promise<OrderOutcome> {
  try {
    const confirmed = await stripe.paymentIntents.confirm(
      intent,
      {
        payment_method: paymentMethod,
        ...(opts.returnUrl ? { return_url: opts.returnUrl } : { error_on_requires_action: true }),
        expand: ["payment_method"],
      },
      opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : undefined,
    );
    return outcomeOf(confirmed, subscriptionId);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
    const message =
      error.code === "authentication_required" && !opts.returnUrl ? NEEDS_CONFIRMATION : error.message;
    return { status: "failed", paymentId: intent, message };
  }
}

/**
 * A downgrade at the period's end, the way Stripe documents it: a subscription schedule with the
 * current price until the period ends, then one period of the new price, then the schedule lets
 * the subscription go on by itself. The next plan is mirrored into the subscription's metadata
 * (cleared by the second phase's metadata when it starts), so webhooks carry it.
 */
export async function scheduleDowngrade(
  stripe: Stripe,
  sub: Stripe.Subscription,
  target: Stripe.Price,
  planId: string,
  automaticTax: boolean,
): Promise<Stripe.Subscription> {
  const item = sub.items.data[0];
  if (!item) throw new PaymentError("This subscription has no plan to change.", "invalid");
  const existing = idOf(sub.schedule);
  const schedule = existing
    ? await stripe.subscriptionSchedules.retrieve(existing)
    : await stripe.subscriptionSchedules.create({ from_subscription: sub.id });
  const current = schedule.current_phase ?? {
    start_date: item.current_period_start,
    end_date: item.current_period_end,
  };
  const phase = schedule.phases.find((p) => p.start_date === current.start_date) ?? schedule.phases[0];
  // Keep the member's discounts: a phase that names none would drop them.
  const discounts = (phase?.discounts ?? []).map((d) =>
    d.discount ? { discount: idOf(d.discount) ?? "" } : { coupon: idOf(d.coupon) ?? "" },
  );
  const recurring = target.recurring ?? { interval: "month" as const, interval_count: 1 };
  await stripe.subscriptionSchedules.update(schedule.id, {
    end_behavior: "release",
    phases: [
      {
        items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
        start_date: current.start_date,
        end_date: current.end_date,
        automatic_tax: { enabled: automaticTax },
        ...(discounts.length > 0 ? { discounts } : {}),
      },
      {
        items: [{ price: target.id, quantity: 1 }],
        duration: { interval: recurring.interval, interval_count: recurring.interval_count },
        automatic_tax: { enabled: automaticTax },
        ...(discounts.length > 0 ? { discounts } : {}),
        metadata: { [PLAN_KEY]: planId, [NEXT_PLAN_KEY]: "" },
      },
    ],
  });
  return stripe.subscriptions.update(sub.id, {
    metadata: { [NEXT_PLAN_KEY]: planId },
    expand: ["default_payment_method"],
  });
}

import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeStandIn, startStripeStandIn, TEST_CARDS } from "../../test/stripe-standin/index.ts";
import { type BillingCustomer, type OrderOutcome, PaymentError } from "../ports/payments.ts";
import { prorationDue } from "./stripe-map.ts";
import { StripePayments } from "./stripe-payments.ts";

// The adapter through the official SDK against the local stand-in (test/stripe-standin).

const RETURN_URL = "https://hearth.test/checkout/return?order=o1";

let standIn: StripeStandIn;
let stripe: StripePayments;
let taxed: StripePayments;
let receiver: Server;
let receiverUrl: string;
const received: { body: Buffer; signature: string | undefined }[] = [];

beforeAll(async () => {
  standIn = await startStripeStandIn({
    promotionCodes: [
      { code: "SAVE20", percentOff: 20 },
      { code: "RETIRED", percentOff: 50, active: false },
      { code: "ONUS", percentOff: 100 },
    ],
    taxRates: { "US-NY": 8.875 },
  });
  const options = {
    secretKey: standIn.secretKey,
    publishableKey: standIn.publishableKey,
    webhookSecret: standIn.webhookSecret,
    apiUrl: standIn.apiUrl,
    scriptUrl: standIn.scriptUrl,
  };
  stripe = new StripePayments({ ...options, automaticTax: false });
  taxed = new StripePayments({ ...options, automaticTax: true });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks),
        signature: req.headers["stripe-signature"] as string | undefined,
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe`;
});

afterAll(async () => {
  await standIn?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const member = (): BillingCustomer => {
  const userId = randomUUID();
  return {
    userId,
    email: `${userId}@example.com`,
    name: "Ada Lovelace",
    country: "US",
    state: "NY",
    postalCode: "10001",
  };
};

async function order(card: string, extra: Partial<Parameters<StripePayments["order"]>[0]> = {}) {
  return stripe.order({
    planId: "basic-1m",
    coupon: null,
    customer: member(),
    paymentToken: await standIn.createPaymentMethod(card),
    idempotencyKey: randomUUID(),
    returnUrl: RETURN_URL,
    ...extra,
  });
}

function approved(outcome: OrderOutcome) {
  if (outcome.status !== "approved") throw new Error(`expected approved, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function challenged(outcome: OrderOutcome) {
  if (outcome.status !== "requires_action")
    throw new Error(`expected requires_action, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** Clicks a button of the challenge page as a browser would: a POST to its form's action. */
async function answerChallenge(
  challengeUrl: string,
  button: "Complete authentication" | "Fail authentication",
) {
  const page = await (await fetch(challengeUrl)).text();
  expect(page).toContain(">Complete authentication</button>");
  expect(page).toContain(">Fail authentication</button>");
  const action = page.match(/<form method="post" action="([^"]+)"/)?.[1] ?? "";
  const value = page.match(new RegExp(`value="(\\w+)">${button}<`))?.[1] ?? "";
  const res = await fetch(action, {
    method: "POST",
    body: new URLSearchParams({ result: value }),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location") ?? "");
}

describe("StripePayments", () => {
  it("tells the browser where Stripe.js is and which publishable key to use", () => {
    expect(stripe.client()).toEqual({ publishableKey: standIn.publishableKey, scriptUrl: standIn.scriptUrl });
  });

  it("quotes a plan, with a valid coupon, an unknown or inactive one, and with automatic tax", async () => {
    const customer = member();
    expect(await stripe.quote({ planId: "basic-1m", coupon: null, customer })).toEqual({
      subtotal: 1500,
      discount: 0,
      tax: 0,
      total: 1500,
      currency: "usd",
      coupon: null,
    });
    const saved = await stripe.quote({ planId: "basic-1m", coupon: "save20", customer });
    expect(saved).toMatchObject({ subtotal: 1500, discount: 300, total: 1200 });
    expect(saved.coupon).toEqual({ code: "save20", valid: true, error: null });
    for (const code of ["NOPE", "RETIRED"]) {
      const quote = await stripe.quote({ planId: "basic-1m", coupon: code, customer });
      expect(quote).toMatchObject({ discount: 0, total: 1500 });
      expect(quote.coupon).toEqual({ code, valid: false, error: "Invalid coupon" });
    }
    // 8.875% of 12.00 after the coupon.
    expect(await taxed.quote({ planId: "basic-1m", coupon: "SAVE20", customer })).toMatchObject({
      subtotal: 1500,
      discount: 300,
      tax: 107,
      total: 1307,
    });
    await expect(stripe.quote({ planId: "gold-1m", coupon: null, customer })).rejects.toMatchObject({
      kind: "not_configured",
    });
    // An address Stripe Tax cannot place is the member's to correct.
    const nowhere = { ...customer, country: "" };
    await expect(taxed.quote({ planId: "basic-1m", coupon: null, customer: nowhere })).rejects.toMatchObject({
      kind: "invalid",
      message: "We could not find this address for tax. Please check the country, state and postal code.",
    });
  });

  it("orders a plan: the card pays, the subscription is active and reuses the member's customer", async () => {
    const customer = member();
    const token = await standIn.createPaymentMethod(TEST_CARDS.visa);
    const key = randomUUID();
    const input = {
      planId: "basic-1m",
      coupon: "SAVE20",
      customer,
      paymentToken: token,
      idempotencyKey: key,
      returnUrl: RETURN_URL,
    };
    const outcome = approved(await stripe.order(input));
    expect(outcome.paymentId).toMatch(/^pi_/);
    expect(outcome.card).toMatchObject({ brand: "visa", last4: "4242" });
    expect(outcome.card?.exp).toMatch(/^12\/\d\d$/);
    const sub = await stripe.fetchSubscription(outcome.subscriptionId);
    expect(sub).toMatchObject({
      id: outcome.subscriptionId,
      planId: "basic-1m",
      status: "active",
      nextPlanId: null,
    });
    expect(sub?.card).toEqual(outcome.card);
    expect(sub?.recurAt?.getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    // The same order again (a retried request) is the same order.
    expect(await stripe.order(input)).toEqual(outcome);
    // A later order finds the member's Stripe customer instead of making another.
    const again = approved(await order(TEST_CARDS.visa, { customer, planId: "premium-1m" }));
    expect((await stripe.fetchSubscription(again.subscriptionId))?.customerId).toBe(sub?.customerId);
  });

  it("approves an order with nothing to charge, whose payment is its invoice", async () => {
    const outcome = approved(await order(TEST_CARDS.visa, { coupon: "ONUS" }));
    expect(outcome.paymentId).toMatch(/^in_/);
    expect(outcome.card).toMatchObject({ last4: "4242" });
    expect(await stripe.paymentOutcome(outcome.paymentId)).toMatchObject({
      status: "approved",
      subscriptionId: outcome.subscriptionId,
    });
    expect(await stripe.fetchSubscription(outcome.subscriptionId)).toMatchObject({ status: "active" });
  });

  it("refuses an order with an unknown coupon before charging anything", async () => {
    expect(await order(TEST_CARDS.visa, { coupon: "NOPE" })).toEqual({
      status: "failed",
      paymentId: null,
      message: "Invalid coupon",
    });
  });

  it("sends the browser to 3-D Secure and approves the order once it is completed", async () => {
    const outcome = challenged(await order(TEST_CARDS.authenticateAlways));
    expect(outcome.paymentId).toMatch(/^pi_/);
    expect(await stripe.paymentOutcome(outcome.paymentId)).toEqual(outcome);
    const back = await answerChallenge(outcome.challengeUrl, "Complete authentication");
    expect(`${back.origin}${back.pathname}`).toBe("https://hearth.test/checkout/return");
    expect(back.searchParams.get("order")).toBe("o1");
    expect(back.searchParams.get("payment_intent")).toBe(outcome.paymentId);
    const settled = approved(await stripe.paymentOutcome(outcome.paymentId));
    expect(settled.card).toMatchObject({ last4: "3220" });
    expect(await stripe.fetchSubscription(settled.subscriptionId)).toMatchObject({ status: "active" });
  });

  it("fails the order when 3-D Secure fails", async () => {
    const outcome = challenged(await order(TEST_CARDS.authenticateOnce));
    const back = await answerChallenge(outcome.challengeUrl, "Fail authentication");
    expect(back.searchParams.get("payment_intent")).toBe(outcome.paymentId);
    expect(await stripe.paymentOutcome(outcome.paymentId)).toEqual({
      status: "failed",
      paymentId: outcome.paymentId,
      message: "Your bank could not confirm this payment. Please try again or use another card.",
    });
  });

  it("fails the order with the decline's sentence, whether the bank refuses the card or the charge", async () => {
    expect(await order(TEST_CARDS.declined)).toEqual({
      status: "failed",
      paymentId: null,
      message: "Your card was declined.",
    });
    const onCharge = await order(TEST_CARDS.declinedOnCharge);
    expect(onCharge).toMatchObject({ status: "failed", message: "Your card was declined." });
    expect(onCharge.paymentId).toMatch(/^pi_/);
    // The unpaid subscription does not linger.
    const deleted = standIn.events.filter((e) => e.type === "customer.subscription.deleted");
    expect(deleted.at(-1)?.data.object).toMatchObject({ status: "canceled" });
  });

  it("previews and makes an upgrade now, and a downgrade at the period's end", async () => {
    const { subscriptionId } = approved(await order(TEST_CARDS.visa));
    const upgrade = await stripe.previewChange(subscriptionId, "premium-1m");
    expect(upgrade.currency).toBe("usd");
    // 24.99 − 15.00 for a period that has barely begun.
    expect(upgrade.amountDue).toBeGreaterThan(990);
    expect(upgrade.amountDue).toBeLessThanOrEqual(999);
    expect(await stripe.previewChange(subscriptionId, "minimal-1m")).toEqual({
      amountDue: 0,
      currency: "usd",
    });

    const upgraded = await stripe.changePlan(subscriptionId, "premium-1m");
    expect(upgraded).toMatchObject({ planId: "premium-1m", status: "active", nextPlanId: null });
    const paid = standIn.events.filter((e) => e.type === "invoice.paid").at(-1)?.data.object;
    expect(paid).toMatchObject({ billing_reason: "subscription_update", amount_paid: upgrade.amountDue });

    const downgraded = await stripe.changePlan(subscriptionId, "basic-1m");
    expect(downgraded).toMatchObject({ planId: "premium-1m", nextPlanId: "basic-1m", status: "active" });
    expect(await stripe.fetchSubscription(subscriptionId)).toMatchObject({ nextPlanId: "basic-1m" });
    // Back to the current plan: the scheduled change is dropped.
    expect(await stripe.changePlan(subscriptionId, "premium-1m")).toMatchObject({ nextPlanId: null });

    await stripe.changePlan(subscriptionId, "minimal-1m");
    standIn.advanceClock(subscriptionId);
    expect(await stripe.fetchSubscription(subscriptionId)).toMatchObject({
      planId: "minimal-1m",
      nextPlanId: null,
      status: "active",
    });
  });

  it("counts only the proration lines of a preview that also shows the next period", () => {
    const line = (amount: number, proration: boolean, tax = 0) => ({
      amount,
      taxes: tax ? [{ amount: tax, tax_behavior: "exclusive" }] : [],
      parent: { subscription_item_details: { proration } },
    });
    const preview = (lines: ReturnType<typeof line>[], amountDue: number) =>
      ({ amount_due: amountDue, lines: { data: lines } }) as unknown as Parameters<typeof prorationDue>[0];
    expect(prorationDue(preview([line(-1500, true), line(2499, true)], 999))).toBe(999);
    expect(
      prorationDue(preview([line(-1500, true), line(2499, true, 89), line(2499, false, 222)], 3809)),
    ).toBe(1088);
  });

  it("leaves the plan as it was when an upgrade's charge is declined", async () => {
    const { subscriptionId } = approved(await order(TEST_CARDS.visa));
    await stripe.changeCard(subscriptionId, await standIn.createPaymentMethod(TEST_CARDS.declinedOnCharge));
    const refused = await stripe.changePlan(subscriptionId, "premium-1m").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentError);
    expect(refused).toMatchObject({ kind: "declined", message: "Your card was declined." });
    expect(await stripe.fetchSubscription(subscriptionId)).toMatchObject({
      planId: "basic-1m",
      status: "active",
    });
  });

  it("cancels at the period's end and re-enables, dropping a scheduled downgrade", async () => {
    const { subscriptionId } = approved(await order(TEST_CARDS.visa, { planId: "premium-1m" }));
    const before = await stripe.fetchSubscription(subscriptionId);
    await stripe.changePlan(subscriptionId, "basic-1m");
    const cancelled = await stripe.cancel(subscriptionId);
    expect(cancelled).toMatchObject({ status: "cancelled", nextPlanId: null, planId: "premium-1m" });
    expect(cancelled.recurAt).toEqual(before?.recurAt);
    expect(await stripe.uncancel(subscriptionId)).toMatchObject({ status: "active", nextPlanId: null });
    await stripe.cancel(subscriptionId);
    standIn.advanceClock(subscriptionId);
    expect(await stripe.fetchSubscription(subscriptionId)).toMatchObject({ status: "expired" });
  });

  it("changes the card future charges use", async () => {
    const { subscriptionId } = approved(await order(TEST_CARDS.visa));
    const changed = await stripe.changeCard(
      subscriptionId,
      await standIn.createPaymentMethod("5555555555554444"),
    );
    expect(changed.card).toMatchObject({ brand: "mastercard", last4: "4444" });
    expect((await stripe.fetchSubscription(subscriptionId))?.card).toEqual(changed.card);
    await expect(
      stripe.changeCard(subscriptionId, await standIn.createPaymentMethod(TEST_CARDS.declined)),
    ).rejects.toMatchObject({ kind: "declined", message: "Your card was declined." });
  });

  it("charges the overdue invoice after a failed renewal", async () => {
    const { subscriptionId } = approved(await order(TEST_CARDS.visa));
    const first = await stripe.fetchSubscription(subscriptionId);
    standIn.advanceClock(subscriptionId, { fail: true });
    expect(await stripe.fetchSubscription(subscriptionId)).toMatchObject({ status: "grace" });
    // A card that needs 3-D Secure: refused without a return address, a challenge with one.
    await stripe.changeCard(subscriptionId, await standIn.createPaymentMethod(TEST_CARDS.authenticateAlways));
    const refused = await stripe.chargeRebill(subscriptionId);
    expect(refused).toMatchObject({ status: "failed" });
    expect(refused.status === "failed" && refused.message).toMatch(/confirm this payment/);
    const challenge = challenged(await stripe.chargeRebill(subscriptionId, RETURN_URL));
    await answerChallenge(challenge.challengeUrl, "Complete authentication");
    expect(await stripe.paymentOutcome(challenge.paymentId)).toMatchObject({
      status: "approved",
      subscriptionId,
    });
    const repaired = await stripe.fetchSubscription(subscriptionId);
    expect(repaired).toMatchObject({ status: "active" });
    expect(repaired?.recurAt?.getTime()).toBeGreaterThanOrEqual(first?.recurAt?.getTime() ?? Infinity);
    expect(await stripe.chargeRebill(subscriptionId)).toMatchObject({
      status: "failed",
      message: "There is no overdue payment on this subscription.",
    });
  });

  it("refuses a webhook whose signature does not match", () => {
    const body = Buffer.from(
      JSON.stringify({ id: "evt_1", object: "event", type: "invoice.paid", data: {} }),
    );
    for (const signature of [
      undefined,
      "t=1,v1=00",
      `t=${Math.floor(Date.now() / 1000)},v1=${"ab".repeat(32)}`,
    ]) {
      expect(() => stripe.parseWebhook(body, signature)).toThrow(PaymentError);
    }
  });

  it("reads signed webhooks, and a dropped one is repaired by fetchSubscription", async () => {
    standIn.sendWebhooksTo(receiverUrl);
    const { subscriptionId, paymentId } = approved(await order(TEST_CARDS.visa));
    await standIn.flushWebhooks();
    const events = received.map((r) => stripe.parseWebhook(r.body, r.signature));
    const created = events.find((e) => e.type === "customer.subscription.created");
    expect(created).toMatchObject({ subscriptionId, paymentId: null });
    expect(created?.subscription).toMatchObject({
      id: subscriptionId,
      planId: "basic-1m",
      status: "incomplete",
    });
    const active = events.filter((e) => e.type === "customer.subscription.updated").at(-1);
    expect(active?.subscription).toMatchObject({ status: "active", card: null });
    expect(events.find((e) => e.type === "invoice.paid")).toMatchObject({
      subscriptionId,
      subscription: null,
    });
    expect(events.find((e) => e.type === "payment_intent.succeeded")).toMatchObject({ paymentId });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    standIn.dropWebhooks(true);
    const before = received.length;
    standIn.advanceClock(subscriptionId, { fail: true });
    await standIn.flushWebhooks();
    expect(received.length).toBe(before);
    expect(standIn.deliveries.at(-1)?.outcome).toBe("dropped");
    expect(await stripe.fetchSubscription(subscriptionId)).toMatchObject({ status: "grace" });
    standIn.dropWebhooks(false);
    standIn.sendWebhooksTo(null);
    expect(await stripe.fetchSubscription("sub_missing")).toBeNull();
  });
});

describe("the Stripe stand-in's browser side", () => {
  it("serves Stripe.js and takes cards with the publishable key from any origin", async () => {
    const script = await fetch(standIn.scriptUrl);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.headers.get("access-control-allow-origin")).toBe("*");
    expect(await script.text()).toContain("window.Stripe = Stripe");
    const form = new URLSearchParams({
      type: "card",
      "card[number]": "4242424242424241",
      "card[exp_month]": "12",
      "card[exp_year]": "2040",
      key: standIn.publishableKey,
    });
    const bad = await fetch(`${standIn.apiUrl}/v1/payment_methods`, {
      method: "POST",
      body: form,
      headers: { origin: "https://hearth.test" },
    });
    expect(bad.status).toBe(402);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
    expect(await bad.json()).toMatchObject({
      error: { code: "incorrect_number", message: "Your card number is incorrect." },
    });
    // The publishable key opens nothing else.
    const customers = await fetch(`${standIn.apiUrl}/v1/customers`, {
      headers: { authorization: `Bearer ${standIn.publishableKey}` },
    });
    expect(customers.status).toBe(401);
  });
});

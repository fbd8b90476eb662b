import type {
  ApiError,
  CheckoutCalculation,
  CheckoutOptions,
  CheckoutOrder,
  Me,
  OrderResponse,
  Subscription,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import {
  type StripeStandIn,
  signatureHeader,
  startStripeStandIn,
  TEST_CARDS,
} from "../../../test/stripe-standin/index.ts";
import { StripePayments } from "../../adapters/stripe-payments.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { readPlanCatalog } from "./plans.ts";
import { billingEvents, subscriptions } from "./schema.ts";
import { BillingService } from "./service.ts";

/**
 * Card checkout end to end through Hearth's HTTP API, the Stripe adapter and the local Stripe
 * stand-in (issue 13 items 1, 2, 4, 6): approved orders, 3-D Secure passed and failed, declines,
 * coupons and tax, signed webhooks applied once, the portal's actions on a card subscription, and
 * the re-sync that repairs a missed webhook.
 */
describe.each(drivers)("card checkout on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await startStripeStandIn({
      promotionCodes: [{ code: "WELCOME10", percentOff: 10 }],
      taxRates: { "US-NY": 8.875 },
    });
    h = await startTestHearth({
      driver,
      env: {
        HEARTH_STRIPE_SECRET_KEY: stripe.secretKey,
        HEARTH_STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
        HEARTH_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        HEARTH_STRIPE_API_URL: stripe.apiUrl,
        HEARTH_STRIPE_SCRIPT_URL: stripe.scriptUrl,
        HEARTH_STRIPE_AUTOMATIC_TAX: "true",
      },
    });
    a = api(h);
    stripe.sendWebhooksTo(`${await h.listen()}/api/billing/webhooks/stripe`);
  });
  afterAll(async () => {
    await h?.stop();
    await stripe?.close();
  });

  const details = {
    plan_id: "basic-1m",
    email: "ada@example.com",
    first_name: "Ada",
    last_name: "Lovelace",
    country: "US",
    state: "NY",
    postal_code: "10001",
  };
  const pay = async (who: Person, card: string, extra: Record<string, unknown> = {}) => {
    const res = await a.post(
      "/api/checkout/new_order",
      { ...details, payment_token: await stripe.createPaymentMethod(card), ...extra },
      who,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<OrderResponse>();
  };
  const me = async (who: Person) => (await a.get("/api/me", who)).json<Me>();
  const sticky = async (who: Person): Promise<Subscription> => {
    const [first] = (await a.get("/api/subscriptions/sticky", who)).json<Subscription[]>();
    if (!first) throw new Error("no subscription");
    return first;
  };

  /** A Stripe event sent to Hearth's webhook as Stripe signs it (a replay, or one arriving late). */
  const deliver = (event: unknown) => {
    const payload = JSON.stringify(event);
    return h.app.inject({
      method: "POST",
      url: "/api/billing/webhooks/stripe",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signatureHeader(payload, stripe.webhookSecret),
      },
      payload,
    });
  };

  it("offers the card first, with Stripe's public key and script, never the secret", async () => {
    const res = await a.get("/api/checkout/options");
    const options = res.json<CheckoutOptions>();
    expect(options.payment_methods[0]).toEqual({ id: "card", label: "Credit or debit card" });
    expect(options.card).toEqual({ publishable_key: stripe.publishableKey, script_url: stripe.scriptUrl });
    expect(res.body).not.toContain(stripe.secretKey);
    expect(res.body).not.toContain(stripe.webhookSecret);
  });

  it("prices with Stripe's tax and promotion codes", async () => {
    const member = await personAs(h, "free");
    const res = await a.post("/api/checkout/calculate", { ...details, promo_code: "WELCOME10" }, member);
    expect(res.statusCode, res.body).toBe(200);
    const priced = res.json<CheckoutCalculation>();
    expect(priced.subtotal).toBe(15);
    expect(priced.discounts).toEqual([{ code: "WELCOME10", valid: true, error: null, total: 1.5 }]);
    expect(priced.tax).toBeCloseTo(1.2, 1);
    expect(priced.total).toBeCloseTo(13.5 + priced.tax, 2);
    const invalid = (
      await a.post("/api/checkout/calculate", { ...details, promo_code: "NOPE" }, member)
    ).json<CheckoutCalculation>();
    expect(invalid.discounts[0]).toMatchObject({ code: "NOPE", valid: false, error: "Invalid coupon" });
  });

  it("an approved card starts the subscription, grants the tier and keeps the card summary", async () => {
    const member = await personAs(h, "free");
    const order = await pay(member, TEST_CARDS.visa);
    expect(order).toMatchObject({ resp_msg: "Approved", status: "approved", iframe_3ds_url: null });
    expect(order.subscription_id).toBeTruthy();
    expect((await me(member)).permissions).toContain("4k_context");
    expect(await sticky(member)).toMatchObject({
      subscription_status: "active",
      provider: "stripe",
      credit_card: { last_4: "4242" },
      current_product: { plan_id: "basic-1m" },
    });
    const success = (await a.get(`/api/checkout/orders/${order.order_id}`, member)).json<CheckoutOrder>();
    expect(success).toMatchObject({
      status: "approved",
      plan_title: "True Supporter (Monthly)",
      provider: "stripe",
    });
    expect(success.amount).toBeCloseTo(15 * 1.08875, 2);
    expect(success.transaction_id ?? "").toBe(order.transaction_id ?? "");
    // A second subscription is refused while this one lives.
    const again = await a.post(
      "/api/checkout/new_order",
      { ...details, payment_token: await stripe.createPaymentMethod(TEST_CARDS.visa) },
      member,
    );
    expect(again.statusCode).toBe(409);
  });

  it("a 3-D Secure challenge passed in the dialog approves the order", async () => {
    const member = await personAs(h, "free");
    const order = await pay(member, TEST_CARDS.authenticateAlways);
    expect(order).toMatchObject({ resp_msg: "Requires action", status: "requires_action" });
    expect(order.iframe_3ds_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/3ds\//);
    const back = new URL((await stripe.challenge(order.iframe_3ds_url ?? "", "complete")) ?? "about:blank");
    expect(back.pathname).toBe("/checkout/3ds-complete");
    expect(back.searchParams.get("order_id") ?? "").toBe(order.order_id);
    const confirmed = (
      await a.post(`/api/checkout/orders/${order.order_id}/confirm`, {}, member)
    ).json<OrderResponse>();
    expect(confirmed).toMatchObject({ resp_msg: "Approved", status: "approved" });
    expect((await me(member)).permissions).toContain("4k_context");
    // Confirming again changes nothing.
    const twice = (
      await a.post(`/api/checkout/orders/${order.order_id}/confirm`, {}, member)
    ).json<OrderResponse>();
    expect(twice).toEqual(confirmed);
  });

  it("a failed challenge or a declined card leaves the member free, with the reason", async () => {
    const member = await personAs(h, "free");
    const order = await pay(member, TEST_CARDS.authenticateAlways);
    await stripe.challenge(order.iframe_3ds_url ?? "", "fail");
    const refused = (
      await a.post(`/api/checkout/orders/${order.order_id}/confirm`, {}, member)
    ).json<OrderResponse>();
    expect(refused).toMatchObject({ resp_msg: "Declined", status: "failed" });
    expect(refused.error_message).toBeTruthy();
    const declined = await pay(member, TEST_CARDS.declined);
    expect(declined).toMatchObject({ resp_msg: "Declined", error_message: "Your card was declined." });
    expect((await me(member)).permissions).not.toContain("4k_context");
    // Somebody else's order is nobody else's business.
    const other = await personAs(h, "free");
    expect((await a.post(`/api/checkout/orders/${order.order_id}/confirm`, {}, other)).statusCode).toBe(404);
  });

  it("refuses a webhook with a bad signature, and applies a good one once", async () => {
    const bad = await h.app.inject({
      method: "POST",
      url: "/api/billing/webhooks/stripe",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=deadbeef" },
      payload: JSON.stringify({ id: "evt_forged", type: "customer.subscription.deleted" }),
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<ApiError>().message).toBe("The webhook's signature does not match.");

    const member = await personAs(h, "free");
    const order = await pay(member, TEST_CARDS.visa);
    await stripe.flushWebhooks();
    const sent = stripe.events.at(-1);
    expect(sent).toBeDefined();
    const replay = () => deliver(sent);
    const count = async () =>
      (
        await h.database.db
          .select()
          .from(billingEvents)
          .where(eq(billingEvents.subscriptionId, order.subscription_id ?? ""))
      ).length;
    expect((await replay()).statusCode).toBe(200);
    const after = await count();
    expect((await replay()).statusCode).toBe(200);
    expect(await count()).toBe(after);
  });

  it("the portal cancels, re-enables and upgrades a card subscription at Stripe", async () => {
    const member = await personAs(h, "free");
    await pay(member, TEST_CARDS.visa);
    const sub = await sticky(member);
    const ids = { subscription_id: sub.subscription_id, order_id: sub.order_id };
    const premium = sub.available_plans.find((p) => p.plan_id === "premium-1m");
    expect(premium?.upgrade_price).toBeGreaterThan(0);
    expect(sub.available_plans.find((p) => p.plan_id === "minimal-1m")?.upgrade_price).toBe(0);

    const cancel = await a.put("/api/subscriptions/sticky", { ...ids, action: "cancel" }, member);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ status: "SUCCESS", subscription_status: "cancelled" });
    expect((await me(member)).permissions).toContain("4k_context");
    await stripe.flushWebhooks();
    const beforeUncancel = stripe.events.length;
    const uncancel = await a.put("/api/subscriptions/sticky", { ...ids, action: "uncancel" }, member);
    expect(uncancel.json()).toMatchObject({ subscription_status: "active" });
    const upgrade = await a.put(
      "/api/subscriptions/sticky",
      { ...ids, action: "change_plan", plan_id: "premium-1m" },
      member,
    );
    expect(upgrade.statusCode, upgrade.body).toBe(200);
    expect((await sticky(member)).current_product.plan_id).toBe("premium-1m");
    expect((await me(member)).role).toBe("premium");
    // The "uncancelled" webhook, landing after the upgrade (Stripe keeps no order), must not put
    // the member back on the plan its copy of the subscription names.
    await stripe.flushWebhooks();
    const stale = stripe.events.slice(beforeUncancel).find((e) => e.type === "customer.subscription.updated");
    expect(stale).toBeDefined();
    expect((await deliver({ ...stale, id: `${stale?.id}_late` })).statusCode).toBe(200);
    expect((await sticky(member)).current_product.plan_id).toBe("premium-1m");
    expect((await me(member)).role).toBe("premium");
    const rebill = await a.put("/api/subscriptions/sticky", { ...ids, action: "charge_rebill" }, member);
    expect(rebill.statusCode).toBe(409);
  });

  it("changes the card from the portal, and charges the card on file again once the subscription ended", async () => {
    const member = await personAs(h, "free");
    const first = await pay(member, TEST_CARDS.visa);
    expect(first.resp_msg).toBe("Approved");
    const onFile = async () =>
      (await a.get("/api/checkout/on_file", member)).json<{ on_file: CheckoutCalculation["on_file"] }>()
        .on_file;
    expect((await onFile())?.credit_card).toMatchObject({ last_4: "4242" });
    expect(await onFile()).toMatchObject({ first_name: "Ada", country: "US", state: "NY" });

    const sub = await sticky(member);
    const ids = { subscription_id: sub.subscription_id, order_id: sub.order_id };
    const changed = await a.put(
      "/api/subscriptions/sticky",
      { ...ids, action: "change_card", card_token: await stripe.createPaymentMethod("5555555555554444") },
      member,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ message: "Your card has been updated." });
    expect((await sticky(member)).credit_card).toMatchObject({ last_4: "4444" });
    // While it lives, the card on file buys no second subscription.
    const { payment_token: _, ...withoutCard } = { ...details, payment_token: null };
    expect((await a.post("/api/checkout/new_order", withoutCard, member)).statusCode).toBe(409);

    // Cancelled, then the period ends at Stripe: the member is free again, the card still on file.
    await a.put("/api/subscriptions/sticky", { ...ids, action: "cancel" }, member);
    const [row] = await h.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, member.id ?? ""));
    await stripe.advanceClock(row?.providerSubscriptionId ?? "");
    await stripe.flushWebhooks();
    expect((await sticky(member)).subscription_status).toBe("expired");
    expect((await me(member)).role).toBe("free");
    expect((await onFile())?.credit_card).toMatchObject({ last_4: "4444" });

    const again = await a.post("/api/checkout/new_order", withoutCard, member);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<OrderResponse>()).toMatchObject({ resp_msg: "Approved" });
    expect(await sticky(member)).toMatchObject({
      subscription_status: "active",
      credit_card: { last_4: "4444" },
    });
    expect((await me(member)).role).toBe("basic");

    // Somebody with no card on file is asked for one.
    const stranger = await personAs(h, "free");
    expect((await a.get("/api/checkout/on_file", stranger)).json()).toEqual({ on_file: null });
    const none = await a.post("/api/checkout/new_order", withoutCard, stranger);
    expect(none.statusCode).toBe(400);
    expect(none.json<ApiError>().issues?.[0]?.path).toBe("payment_token");
  });

  it("the re-sync repairs a missed webhook: a failed renewal puts the member in grace; a rebill restores it", async () => {
    const member = await personAs(h, "free");
    await pay(member, TEST_CARDS.visa);
    await stripe.flushWebhooks();
    const [row] = await h.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, member.id ?? ""));
    stripe.dropWebhooks(true);
    await stripe.advanceClock(row?.providerSubscriptionId ?? "", { fail: true });
    stripe.dropWebhooks(false);
    expect((await sticky(member)).subscription_status).toBe("active");

    const billing = new BillingService({
      db: h.database.db,
      plans: readPlanCatalog(h.config.dataDir),
      card: new StripePayments({
        secretKey: stripe.secretKey,
        publishableKey: stripe.publishableKey,
        webhookSecret: stripe.webhookSecret,
        apiUrl: stripe.apiUrl,
        automaticTax: true,
      }),
    });
    expect(await billing.resync()).toBeGreaterThanOrEqual(1);
    const grace = await sticky(member);
    expect(grace.subscription_status).toBe("grace");
    expect(await billing.resync()).toBe(0);

    const rebill = await a.put(
      "/api/subscriptions/sticky",
      { subscription_id: grace.subscription_id, order_id: grace.order_id, action: "charge_rebill" },
      member,
    );
    expect(rebill.statusCode, rebill.body).toBe(200);
    expect((await sticky(member)).subscription_status).toBe("active");
  });
});

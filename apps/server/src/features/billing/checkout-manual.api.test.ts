import type {
  ApiError,
  CheckoutCalculation,
  CheckoutOptions,
  CheckoutOrder,
  Coupon,
  Me,
  Subscription,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { billingEvents, subscriptions } from "./schema.ts";

/**
 * Checkout without a card provider (issue 13 items 2 and 4): the manual provider's options, the
 * address rules of §5 from the maintained tables, coupons an administrator issues, a pending
 * order an administrator marks received, and who may do what.
 */
const INSTRUCTIONS = "Transfer the amount to IBAN XX00 0000 and write your order id in the reference.";

describe.each(drivers)("checkout by arrangement on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let admin: Person;
  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_MANUAL_PAYMENTS: INSTRUCTIONS } });
    a = api(h);
    admin = await personAs(h, "admin");
  });
  afterAll(async () => {
    await h.stop();
  });

  const details = {
    plan_id: "basic-1m",
    email: "pat@example.com",
    first_name: "Pat",
    last_name: "Doe",
    country: "US",
    state: "CA",
    postal_code: "94107",
  };
  const calculate = (who: Person, body: Record<string, unknown>) =>
    a.post("/api/checkout/calculate", body, who);

  it("offers payment by arrangement, with the operator's instructions, and no card", async () => {
    const options = (await a.get("/api/checkout/options")).json<CheckoutOptions>();
    expect(options.payment_methods).toEqual([{ id: "manual", label: "Pay by arrangement with the site" }]);
    expect(options.card).toBeNull();
    expect(options.manual_instructions).toBe(INSTRUCTIONS);
    const member = await personAs(h, "free");
    const card = await a.post("/api/checkout/new_order", { ...details, payment_token: "pm_x" }, member);
    expect(card.statusCode, card.body).toBe(409);
  });

  it("lists countries and states from the maintained table with §5's labels", async () => {
    const countries = (await a.get("/api/checkout/countries")).json<
      { code: string; name: string; has_states: boolean; state_label: string }[]
    >();
    expect(countries.length).toBeGreaterThan(200);
    expect(countries.find((c) => c.code === "US")).toMatchObject({ has_states: true, state_label: "State" });
    expect(countries.find((c) => c.code === "FR")).toMatchObject({ state_label: "Province" });
    const states = (await a.get("/api/checkout/countries/us/states")).json<
      { code: string; name: string }[]
    >();
    expect(states).toContainEqual({ code: "CA", name: "California" });
    expect((await a.get("/api/checkout/countries/ZZZ/states")).statusCode).toBe(400);
  });

  it("prices a plan and checks the address as §5 says", async () => {
    const member = await personAs(h, "free");
    const res = await calculate(member, {
      plan_id: "premium-1y",
      country: "DE",
      state: "BE",
      postal_code: "10115",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CheckoutCalculation>()).toEqual({
      line_items: [{ name: "I'm All In (Yearly)", amount: 249.99 }],
      subtotal: 249.99,
      tax: 0,
      discounts: [],
      total: 249.99,
      currency: "usd",
      on_file: null,
    });
    const problem = async (body: Record<string, unknown>) => {
      const answer = await calculate(member, { plan_id: "basic-1m", ...body });
      expect(answer.statusCode, answer.body).toBe(400);
      return answer.json<ApiError>().issues?.[0];
    };
    expect(await problem({ country: "US", state: "CA", postal_code: "ABCDE" })).toMatchObject({
      path: "postal_code",
      message: "Invalid Zip",
    });
    expect(await problem({ country: "GB", state: "ENG", postal_code: "12" })).toMatchObject({
      message: "Invalid Postal Code",
    });
    expect(await problem({ country: "US", postal_code: "94107" })).toMatchObject({ path: "state" });
    expect(await problem({ country: "XQ", state: "CA" })).toMatchObject({ path: "country" });
    // A country without states takes the placeholder: no state needed.
    const noStates = await calculate(member, { plan_id: "basic-1m", country: "AQ" });
    expect(noStates.statusCode, noStates.body).toBe(200);
    expect((await calculate(member, { plan_id: "nope-1m", country: "US", state: "CA" })).statusCode).toBe(
      400,
    );
  });

  it("judges coupons: valid ones take their discount, others say 'Invalid coupon'", async () => {
    const res = await a.post(
      "/api/admin/coupons",
      { code: "spring20", percent_off: 20, plan_ids: ["basic-1m"] },
      admin,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Coupon>()).toMatchObject({ code: "SPRING20", percent_off: 20, redeemed: 0 });
    expect((await a.post("/api/admin/coupons", { code: "SPRING20", percent_off: 5 }, admin)).statusCode).toBe(
      409,
    );
    expect(
      (await a.post("/api/admin/coupons", { code: "BOTH", percent_off: 5, amount_off: 1 }, admin)).statusCode,
    ).toBe(400);
    const member = await personAs(h, "free");
    const priced = (
      await calculate(member, { ...details, promo_code: "spring20" })
    ).json<CheckoutCalculation>();
    expect(priced.discounts).toEqual([{ code: "SPRING20", valid: true, error: null, total: 3 }]);
    expect(priced.total).toBe(12);
    const otherPlan = (
      await calculate(member, { ...details, plan_id: "premium-1m", promo_code: "SPRING20" })
    ).json<CheckoutCalculation>();
    expect(otherPlan.discounts).toEqual([
      { code: "SPRING20", valid: false, error: "Invalid coupon", total: 0 },
    ]);
    expect(otherPlan.total).toBe(24.99);
    const order = await a.post(
      "/api/checkout/manual_new_payment",
      { ...details, promo_code: "NOPE" },
      member,
    );
    expect(order.statusCode, order.body).toBe(400);
    expect(order.json<ApiError>().issues?.[0]).toMatchObject({
      path: "promo_code",
      message: "Invalid coupon",
    });
  });

  it("records a pending order that an administrator marks received, which starts the subscription", async () => {
    const member = await personAs(h, "free");
    const placed = await a.post(
      "/api/checkout/manual_new_payment",
      { ...details, promo_code: "SPRING20" },
      member,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const url = placed.json<{ url: string }>().url;
    const orderId = new URL(url, "http://x").searchParams.get("order_id") ?? "";
    expect(url).toBe(`/checkout/success?order_id=${orderId}`);
    const pending = (await a.get(`/api/checkout/orders/${orderId}`, member)).json<CheckoutOrder>();
    expect(pending).toMatchObject({
      status: "pending",
      plan_title: "True Supporter (Monthly)",
      amount: 12,
      provider: "manual",
      instructions: INSTRUCTIONS,
      subscription_id: null,
    });
    // Nobody else sees it.
    const other = await personAs(h, "free");
    expect((await a.get(`/api/checkout/orders/${orderId}`, other)).statusCode).toBe(404);

    const queue = (await a.get("/api/admin/orders/pending", admin)).json<
      { order_id: string; name: string }[]
    >();
    expect(queue.find((o) => o.order_id === orderId)).toMatchObject({ name: "Pat Doe" });
    // Two administrators press at once: the months are granted once, the other hears it is settled.
    const both = await Promise.all(
      [1, 2].map(() => a.post(`/api/admin/orders/${orderId}/received`, {}, admin)),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const received = both.find((r) => r.statusCode === 200);
    expect(received?.json<CheckoutOrder>().status).toBe("approved");
    expect((await a.post(`/api/admin/orders/${orderId}/received`, {}, admin)).statusCode).toBe(409);
    const paid = await h.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.type, "manual.paid"));
    expect(paid.filter((e) => e.userId === member.id)).toHaveLength(1);

    const [sub] = (await a.get("/api/subscriptions/sticky", member)).json<Subscription[]>();
    expect(sub).toMatchObject({ subscription_status: "active", current_product: { plan_id: "basic-1m" } });
    expect((await a.get("/api/me", member)).json<Me>().permissions).toContain("4k_context");
    const coupons = (await a.get("/api/admin/coupons", admin)).json<Coupon[]>();
    expect(coupons.find((c) => c.code === "SPRING20")?.redeemed).toBe(1);
    // The details are on file for next time; a second subscription is refused while this one lives.
    const again = (await calculate(member, details)).json<CheckoutCalculation>();
    expect(again.on_file).toMatchObject({
      first_name: "Pat",
      last_name: "Doe",
      postal_code: "94107",
      order_id: orderId,
    });
    const second = await a.post("/api/checkout/manual_new_payment", details, member);
    expect(second.statusCode, second.body).toBe(409);
  });

  it("keeps checkout to members and the coupon and order screens to administrators", async () => {
    const guest = await personAs(h, "guest");
    expect((await calculate(guest, details)).statusCode).toBe(403);
    expect((await a.post("/api/checkout/manual_new_payment", details, guest)).statusCode).toBe(403);
    const restricted = await personAs(h, "restricted");
    expect((await a.post("/api/checkout/manual_new_payment", details, restricted)).statusCode).toBe(403);
    for (const role of ["free", "minimal", "basic", "premium"] as const) {
      const who = await personAs(h, role);
      expect((await a.get("/api/admin/coupons", who)).statusCode, role).toBe(403);
      expect((await a.get("/api/admin/orders/pending", who)).statusCode, role).toBe(403);
      expect(
        (await a.post("/api/admin/coupons", { code: "FREE", percent_off: 100 }, who)).statusCode,
        role,
      ).toBe(403);
    }
    expect((await a.get("/api/admin/coupons")).statusCode).toBe(401);
    expect((await a.delete("/api/admin/coupons/SPRING20", admin)).statusCode).toBe(204);
    expect((await a.delete("/api/admin/coupons/SPRING20", admin)).statusCode).toBe(404);
  });

  it("ends a deleted member's subscription and keeps its record without the member", async () => {
    const member = await personAs(h, "free");
    const granted = await a.post(
      "/api/admin/subscriptions",
      { user_id: member.id, plan_id: "minimal-1m", months: 1 },
      admin,
    );
    const { subscription_id } = granted.json<Subscription>();
    expect((await a.delete("/api/users", member)).statusCode).toBe(204);
    const [row] = await h.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscription_id));
    expect(row).toMatchObject({ status: "expired", userId: null });
    const events = await h.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.subscriptionId, subscription_id));
    expect(events.map((e) => e.type)).toEqual(["manual.paid", "account.deleted"]);
  });

  it("refuses a webhook when no card provider is set up", async () => {
    const res = await h.app.inject({
      method: "POST",
      url: "/api/billing/webhooks/stripe",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      payload: "{}",
    });
    expect(res.statusCode, res.body).toBe(404);
  });
});

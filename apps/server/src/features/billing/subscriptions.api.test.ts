import type { ApiError, Me, Subscription } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { users } from "../accounts/schema.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { pledgeTierOf } from "../pledges/index.ts";
import { saveLink } from "../pledges/queries.ts";
import { readPlanCatalog } from "./plans.ts";
import { appendBillingEvent } from "./queries.ts";
import { billingEvents, subscriptions } from "./schema.ts";
import { BillingService } from "./service.ts";

/**
 * Subscriptions on the manual provider (issue 13 items 1, 2, 6): an administrator's grant, the
 * portal's sticky subscription and its actions, the sweep that ends a paid period, the role and
 * standing they give the account, and who may do what.
 */
describe.each(drivers)("subscriptions on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let admin: Person;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
    admin = await personAs(h, "admin");
  });
  afterAll(async () => {
    await h.stop();
  });

  const grant = (who: Person, body: Record<string, unknown>) => a.post("/api/admin/subscriptions", body, who);
  const sticky = async (who: Person) => {
    const res = await a.get("/api/subscriptions/sticky", who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Subscription[]>();
  };
  const act = (who: Person, body: Record<string, unknown>) => a.put("/api/subscriptions/sticky", body, who);
  const me = async (who: Person) => (await a.get("/api/me", who)).json<Me>();
  const months = (from: number, to: string | null) =>
    Math.round((Date.parse(to ?? "") - from) / (30.44 * 24 * 3600 * 1000));

  it("a grant makes the member a subscriber of the plan's tier, for the months given", async () => {
    const member = await personAs(h, "free");
    expect(await sticky(member)).toEqual([]);
    const before = Date.now();
    const res = await grant(admin, { user_id: member.id, plan_id: "basic-1m", months: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const sub = res.json<Subscription>();
    expect(sub).toMatchObject({
      subscription_status: "active",
      provider: "manual",
      frequency: "Monthly Subscription",
      current_product: { plan_id: "basic-1m", name: "True Supporter", role: "basic", price: 15 },
      next_product: null,
      credit_card: null,
    });
    expect(months(before, sub.recur_at)).toBe(3);
    expect((await me(member)).permissions).toContain("4k_context");
    expect(await sticky(member)).toEqual([sub]);

    // A second grant runs on from the end of what is paid.
    const again = (
      await grant(admin, { user_id: member.id, plan_id: "basic-1m", months: 2 })
    ).json<Subscription>();
    expect(again.subscription_id).toBe(sub.subscription_id);
    expect(months(before, again.recur_at)).toBe(5);
    const events = await h.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.subscriptionId, sub.subscription_id));
    expect(events.map((e) => e.type)).toEqual(["manual.paid", "manual.paid"]);
    expect(events.every((e) => e.actorUserId === admin.id)).toBe(true);
  });

  it("the portal cancels, re-enables and schedules a plan change; a card action is refused", async () => {
    const member = await personAs(h, "free");
    const sub = (
      await grant(admin, { user_id: member.id, plan_id: "basic-1m", months: 1 })
    ).json<Subscription>();
    const ids = { subscription_id: sub.subscription_id, order_id: sub.order_id };

    const cancelled = await act(member, { action: "cancel", ...ids });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: "SUCCESS", subscription_status: "cancelled" });
    // Cancelled keeps the benefits until recur_at.
    expect((await me(member)).role).toBe("basic");
    expect((await me(member)).permissions).toContain("4k_context");
    const changeWhileCancelled = await act(member, { action: "change_plan", plan_id: "premium-1m", ...ids });
    expect(changeWhileCancelled.statusCode).toBe(409);

    expect((await act(member, { action: "uncancel", ...ids })).json()).toMatchObject({
      subscription_status: "active",
    });
    const changed = await act(member, { action: "change_plan", plan_id: "premium-1m", ...ids });
    expect(changed.statusCode, changed.body).toBe(200);
    const [after] = await sticky(member);
    expect(after?.next_product).toMatchObject({ plan_id: "premium-1m", name: "I'm All In" });
    expect(after?.current_product.plan_id).toBe("basic-1m");

    const card = await act(member, { action: "change_card", card_token: "tok_x", ...ids });
    expect(card.statusCode).toBe(409);
    expect(card.json<ApiError>().message).toMatch(/no card/);
    // The body's own rules: change_plan needs plan_id.
    expect((await act(member, { action: "change_plan", ...ids })).statusCode).toBe(400);
  });

  it("the sweep ends a cancelled subscription whose period is over: the account is free again", async () => {
    const member = await personAs(h, "free");
    const sub = (
      await grant(admin, { user_id: member.id, plan_id: "premium-1m", months: 1 })
    ).json<Subscription>();
    await act(member, { action: "cancel", subscription_id: sub.subscription_id });
    const billing = new BillingService({ db: h.database.db, plans: readPlanCatalog(h.config.dataDir) });
    expect(await billing.sweep(new Date())).toBe(0);
    await h.database.db
      .update(subscriptions)
      .set({ recurAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.id, sub.subscription_id));
    expect(await billing.sweep(new Date())).toBe(1);
    expect(await billing.sweep(new Date())).toBe(0);
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(eq(users.id, member.id ?? ""));
    expect(row).toMatchObject({ role: "free", status: "expired" });
    expect((await me(member)).permissions).not.toContain("priority_queue");
    const [ended] = await sticky(member);
    expect(ended?.subscription_status).toBe("expired");
    expect((await act(member, { action: "uncancel", subscription_id: sub.subscription_id })).statusCode).toBe(
      404,
    );
  });

  it("a linked pledge's tier outlasts a subscription that ends", async () => {
    const member = await personAs(h, "free");
    await saveLink(h.database.db, {
      userId: member.id ?? "",
      service: "patreon",
      externalUserId: `patron-${member.id}`,
      role: "basic",
      checkedAt: new Date(),
    });
    const sub = (
      await grant(admin, { user_id: member.id, plan_id: "premium-1m", months: 1 })
    ).json<Subscription>();
    expect((await me(member)).role).toBe("premium");
    await act(member, { action: "cancel", subscription_id: sub.subscription_id });
    await h.database.db
      .update(subscriptions)
      .set({ recurAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.id, sub.subscription_id));
    const billing = new BillingService({
      db: h.database.db,
      plans: readPlanCatalog(h.config.dataDir),
      otherTier: pledgeTierOf,
    });
    expect(await billing.sweep(new Date())).toBe(1);
    expect(await me(member)).toMatchObject({ role: "basic" });
    const [row] = await h.database.db
      .select()
      .from(users)
      .where(eq(users.id, member.id ?? ""));
    expect(row).toMatchObject({ role: "basic", status: "active" });
  });

  it("yearly subscribers are offered and may change to yearly plans only", async () => {
    const member = await personAs(h, "free");
    const sub = (
      await grant(admin, { user_id: member.id, plan_id: "basic-1y", months: 12 })
    ).json<Subscription>();
    expect(sub.frequency).toBe("Yearly Subscription");
    expect(sub.available_plans.every((p) => p.billing_frequency === "annual")).toBe(true);
    const monthly = await act(member, {
      action: "change_plan",
      plan_id: "premium-1m",
      subscription_id: sub.subscription_id,
    });
    expect(monthly.statusCode).toBe(409);
  });

  it("a provider event seen before is not recorded twice", async () => {
    const event = { provider: "stripe" as const, providerEventId: `evt_${Date.now()}`, type: "invoice.paid" };
    expect(await appendBillingEvent(h.database.db, event)).not.toBeNull();
    expect(await appendBillingEvent(h.database.db, event)).toBeNull();
  });

  it("refuses unknown plans and users, guests as subscribers, and another member's subscription", async () => {
    const member = await personAs(h, "free");
    expect((await grant(admin, { user_id: member.id, plan_id: "gold-1m", months: 1 })).statusCode).toBe(400);
    expect((await grant(admin, { user_id: "nobody", plan_id: "basic-1m", months: 1 })).statusCode).toBe(404);
    expect((await grant(admin, { user_id: member.id, plan_id: "basic-1m", months: 0 })).statusCode).toBe(400);
    const guest = await personAs(h, "guest");
    expect((await grant(admin, { user_id: guest.id, plan_id: "basic-1m", months: 1 })).statusCode).toBe(409);
    const sub = (
      await grant(admin, { user_id: member.id, plan_id: "basic-1m", months: 1 })
    ).json<Subscription>();
    const other = await personAs(h, "free");
    const res = await act(other, { action: "cancel", subscription_id: sub.subscription_id });
    expect(res.statusCode).toBe(404);
  });

  it.each<[Role, number]>([
    ["signed out", 401],
    ["guest", 403],
    ["free", 403],
    ["minimal", 403],
    ["premium", 403],
    ["limited", 403],
    ["restricted", 403],
  ])("only administrators grant: %s gets %i, before the body is read", async (role, status) => {
    const who = await personAs(h, role);
    const member = await personAs(h, "free");
    expect((await grant(who, { user_id: member.id, plan_id: "basic-1m", months: 1 })).statusCode).toBe(
      status,
    );
    expect((await a.post("/api/admin/subscriptions", { nonsense: true }, who)).statusCode).toBe(status);
    expect(await sticky(member)).toEqual([]);
  });

  it("the portal: signed-out callers get 401, guests have no subscription, restricted accounts may not act", async () => {
    expect((await a.get("/api/subscriptions/sticky")).statusCode).toBe(401);
    expect(await sticky(await personAs(h, "guest"))).toEqual([]);
    const restricted = await personAs(h, "restricted");
    const res = await act(restricted, { action: "cancel", subscription_id: "x" });
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiError>().code).toBe("restricted");
  });
});

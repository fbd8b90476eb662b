import { describe, expect, it } from "vitest";
import { type BillingAction, entitlementOf, type SubscriptionState, transition } from "./entitlements.ts";

const now = new Date("2026-11-24T12:00:00Z");
const later = new Date("2026-12-24T12:00:00Z");
const earlier = new Date("2026-11-01T12:00:00Z");
const state = (over: Partial<SubscriptionState> = {}): SubscriptionState => ({
  status: "active",
  planId: "basic-1m",
  nextPlanId: null,
  recurAt: later,
  ...over,
});
const roleOf = (id: string) =>
  id.startsWith("premium") ? "premium" : id.startsWith("minimal") ? "minimal" : "basic";
const apply = (s: SubscriptionState, action: BillingAction) => transition(s, action, now);

describe("the subscription state machine", () => {
  it("a first payment activates; renewals move recur_at and apply a waiting downgrade", () => {
    const paid = apply(state({ status: "incomplete", recurAt: null }), { type: "paid", recurAt: later });
    expect(paid).toMatchObject({ status: "active", recurAt: later });
    const next = new Date("2027-01-24T12:00:00Z");
    expect(apply(state({ nextPlanId: "minimal-1m" }), { type: "paid", recurAt: next })).toEqual(
      state({ planId: "minimal-1m", recurAt: next }),
    );
  });

  it("a failed charge puts an active subscription in grace; a rebill brings it back", () => {
    const grace = apply(state(), { type: "paymentFailed" });
    expect(grace.status).toBe("grace");
    expect(apply(grace, { type: "paymentFailed" })).toEqual(grace);
    expect(apply(grace, { type: "paid", recurAt: later }).status).toBe("active");
  });

  it("cancel keeps access until recur_at, uncancel re-enables before it, and the period's end expires it", () => {
    const cancelled = apply(state(), { type: "cancel" });
    expect(cancelled.status).toBe("cancelled");
    expect(apply(cancelled, { type: "cancel" })).toEqual(cancelled);
    expect(apply(cancelled, { type: "uncancel" }).status).toBe("active");
    expect(apply(cancelled, { type: "periodEnded" })).toEqual(cancelled);
    const ended = apply(state({ status: "cancelled", recurAt: earlier }), { type: "periodEnded" });
    expect(ended.status).toBe("expired");
    expect(() => apply(state({ status: "cancelled", recurAt: earlier }), { type: "uncancel" })).toThrow(
      /not ended/,
    );
  });

  it("grace and unpaid subscriptions end at once when cancelled; grace expires at the period's end", () => {
    expect(apply(state({ status: "grace" }), { type: "cancel" }).status).toBe("expired");
    expect(apply(state({ status: "incomplete" }), { type: "cancel" }).status).toBe("expired");
    expect(apply(state({ status: "grace", recurAt: earlier }), { type: "periodEnded" }).status).toBe(
      "expired",
    );
    expect(apply(state({ recurAt: earlier }), { type: "periodEnded" }).status).toBe("active");
  });

  it("an expired subscription takes no action but a new checkout", () => {
    const expired = state({ status: "expired" });
    expect(() => apply(expired, { type: "paid", recurAt: later })).toThrow(/subscribe again/);
    expect(() => apply(expired, { type: "cancel" })).toThrow(/expired/);
    expect(() => apply(expired, { type: "uncancel" })).toThrow();
    expect(() => apply(expired, { type: "changePlan", planId: "premium-1m", immediate: true })).toThrow();
  });

  it("upgrades apply now, downgrades wait; the current plan and a cancelled subscription are refused", () => {
    expect(apply(state(), { type: "changePlan", planId: "premium-1m", immediate: true })).toMatchObject({
      planId: "premium-1m",
      nextPlanId: null,
    });
    const waiting = apply(state(), { type: "changePlan", planId: "minimal-1m", immediate: false });
    expect(waiting).toMatchObject({ planId: "basic-1m", nextPlanId: "minimal-1m" });
    // Choosing the current plan again calls the waiting downgrade off.
    expect(
      apply(waiting, { type: "changePlan", planId: "basic-1m", immediate: false }).nextPlanId,
    ).toBeNull();
    expect(() => apply(state(), { type: "changePlan", planId: "basic-1m", immediate: true })).toThrow(
      /current plan/,
    );
    expect(() =>
      apply(state({ status: "cancelled" }), { type: "changePlan", planId: "premium-1m", immediate: true }),
    ).toThrow(/Re-enable/);
    expect(() =>
      apply(state({ status: "grace" }), { type: "changePlan", planId: "premium-1m", immediate: true }),
    ).toThrow(/not active/);
  });
});

describe("the provider's view of a subscription (webhooks, settled orders, the re-sync)", () => {
  const remote = (over: Partial<SubscriptionState> = {}) => ({ ...state(), ...over });
  const sync = (s: SubscriptionState, r: SubscriptionState) => apply(s, { type: "synced", remote: r });

  it("wins: status, plan, waiting plan and recur_at come from the provider", () => {
    const paid = sync(state({ status: "incomplete", recurAt: null }), remote());
    expect(paid).toEqual(state());
    expect(sync(state(), remote({ status: "cancelled" })).status).toBe("cancelled");
    expect(sync(state(), remote({ status: "grace" })).status).toBe("grace");
    expect(sync(state(), remote({ planId: "premium-1m" })).planId).toBe("premium-1m");
    expect(sync(state(), remote({ nextPlanId: "minimal-1m" })).nextPlanId).toBe("minimal-1m");
    expect(sync(state(), remote({ status: "expired" })).status).toBe("expired");
  });

  it("cannot revive an expired subscription, and an incomplete report changes nothing paid", () => {
    const expired = state({ status: "expired" });
    expect(sync(expired, remote())).toEqual(expired);
    expect(sync(state(), remote({ status: "incomplete" }))).toEqual(state());
  });

  it("keeps the known recur_at when the provider gives none", () => {
    expect(sync(state(), { ...remote(), recurAt: null }).recurAt).toEqual(later);
  });
});

describe("the entitlement the users row gets", () => {
  it("is the plan's role while active, cancelled or in grace, and free otherwise", () => {
    expect(entitlementOf(null, roleOf)).toEqual({ role: "free", status: "inactive" });
    expect(entitlementOf(state({ status: "incomplete" }), roleOf)).toEqual({
      role: "free",
      status: "inactive",
    });
    expect(entitlementOf(state(), roleOf)).toEqual({ role: "basic", status: "active" });
    expect(entitlementOf(state({ status: "cancelled", planId: "premium-1y" }), roleOf)).toEqual({
      role: "premium",
      status: "cancelled",
    });
    expect(entitlementOf(state({ status: "grace" }), roleOf)).toEqual({ role: "basic", status: "grace" });
    expect(entitlementOf(state({ status: "expired" }), roleOf)).toEqual({ role: "free", status: "expired" });
  });
});

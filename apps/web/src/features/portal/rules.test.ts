import type { Subscription } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import {
  dateLabel,
  dialogPeriods,
  EXPIRED_TEXT,
  GRACE_TEXT,
  initialPeriod,
  paymentMethod,
  planOptions,
  portalActions,
  portalNotice,
} from "./rules.ts";

const NOW = new Date("2026-05-01T12:00:00Z");
const LATER = "2026-06-01T12:00:00.000Z";
const EARLIER = "2026-04-01T12:00:00.000Z";

type Available = Subscription["available_plans"][number];
const plan = (plan_id: string, role: Available["role"], price: number, upgrade_price = 0): Available => ({
  plan_id,
  name: { minimal: "Get a Taste", basic: "True Supporter", premium: "I'm All In" }[role],
  role,
  price,
  currency: "usd",
  billing_frequency: plan_id.includes("1y") ? "annual" : "monthly",
  upgrade_price,
});

const ALL = [
  plan("premium-1m", "premium", 24.99),
  plan("minimal-1m", "minimal", 4.99),
  plan("basic-1m", "basic", 15),
  plan("minimal-1y", "minimal", 49.99),
  plan("basic-1y", "basic", 149.99),
  plan("premium-1y", "premium", 249.99),
];

/** A monthly True Supporter subscription on Stripe with a card, active, unless overridden. */
function sub(over: Partial<Subscription> = {}): Subscription {
  return {
    order_id: "order-1",
    subscription_id: "sub-1",
    subscription_status: "active",
    provider: "stripe",
    recur_at: LATER,
    frequency: "Monthly Subscription",
    is_card_deleted: false,
    credit_card: { type: "visa", last_4: "4242" },
    current_product: {
      plan_id: "basic-1m",
      name: "True Supporter",
      role: "basic",
      price: 15,
      currency: "usd",
    },
    next_product: null,
    available_plans: ALL,
    ...over,
  };
}

describe("portal buttons (§2.2 Subscriber portal)", () => {
  it("an active subscription may cancel and change plan, not uncancel or pay overdue", () => {
    expect(portalActions(sub(), NOW)).toEqual({
      cancel: true,
      uncancel: false,
      changePlan: { visible: true, disabledReason: null },
      changeCard: true,
      payOverdue: false,
    });
  });

  it("a cancelled one offers Uncancel instead of Cancel, and Change Plan is disabled with the reason", () => {
    const actions = portalActions(sub({ subscription_status: "cancelled" }), NOW);
    expect(actions.cancel).toBe(false);
    expect(actions.uncancel).toBe(true);
    expect(actions.changePlan.visible).toBe(true);
    expect(actions.changePlan.disabledReason).toMatch(/Uncancel/);
  });

  it("a cancelled one whose period is over cannot be uncancelled (the server would refuse)", () => {
    expect(portalActions(sub({ subscription_status: "cancelled", recur_at: EARLIER }), NOW).uncancel).toBe(
      false,
    );
  });

  it("a deleted card hides cancel, uncancel and change plan, but keeps Change Card", () => {
    for (const status of ["active", "cancelled", "grace"] as const) {
      const actions = portalActions(sub({ subscription_status: status, is_card_deleted: true }), NOW);
      expect(actions, status).toMatchObject({
        cancel: false,
        uncancel: false,
        changePlan: { visible: false },
        changeCard: true,
      });
    }
  });

  it("an expired or never-started subscription shows none of the actions", () => {
    for (const status of ["expired", "incomplete"] as const) {
      expect(portalActions(sub({ subscription_status: status }), NOW), status).toEqual({
        cancel: false,
        uncancel: false,
        changePlan: { visible: false, disabledReason: null },
        changeCard: false,
        payOverdue: false,
      });
    }
  });

  it("grace offers Pay overdue and Cancel; Change Plan waits for the payment", () => {
    const actions = portalActions(sub({ subscription_status: "grace" }), NOW);
    expect(actions.payOverdue).toBe(true);
    expect(actions.cancel).toBe(true);
    expect(actions.changePlan.disabledReason).toMatch(/overdue/);
  });

  it("Change Card exists only where there is a card provider", () => {
    expect(portalActions(sub({ provider: "manual", credit_card: null }), NOW).changeCard).toBe(false);
    expect(portalActions(sub({ provider: "stripe" }), NOW).changeCard).toBe(true);
  });
});

describe("portal notices (§8)", () => {
  it("grace shows the payment-failed text, replaced by a failed rebill's own message", () => {
    expect(portalNotice(sub({ subscription_status: "grace" }))).toEqual({ kind: "grace", text: GRACE_TEXT });
    expect(portalNotice(sub({ subscription_status: "grace" }), "Your card was declined.")).toEqual({
      kind: "grace",
      text: "Your card was declined.",
    });
  });

  it("expired says so and reactivates through checkout with the current plan", () => {
    expect(portalNotice(sub({ subscription_status: "expired" }))).toEqual({
      kind: "expired",
      text: EXPIRED_TEXT,
      reactivatePlanId: "basic-1m",
    });
  });

  it("cancelled says until when; active says nothing", () => {
    expect(portalNotice(sub({ subscription_status: "cancelled" }))).toEqual({
      kind: "cancelled",
      until: LATER,
    });
    expect(portalNotice(sub())).toBeNull();
  });

  it("names the date row by state", () => {
    expect(dateLabel(sub())).toBe("Next charge date");
    expect(dateLabel(sub({ subscription_status: "cancelled" }))).toBe("Benefits end on");
    expect(dateLabel(sub({ recur_at: null }))).toBeNull();
  });
});

describe("payment method", () => {
  it("summarises the card, or says the administrators arranged it", () => {
    expect(paymentMethod(sub())).toBe("Visa ending in 4242");
    expect(paymentMethod(sub({ is_card_deleted: true }))).toBe("No card on file (it was removed)");
    expect(paymentMethod(sub({ provider: "manual", credit_card: null }))).toBe(
      "Arranged with the site's administrators",
    );
  });
});

describe("Change Plan options", () => {
  it("monthly subscribers toggle monthly and annual; yearly ones see annual plans only", () => {
    expect(dialogPeriods(sub())).toEqual(["monthly", "annual"]);
    expect(initialPeriod(sub())).toBe("monthly");
    const yearly = sub({
      frequency: "Yearly Subscription",
      current_product: {
        plan_id: "basic-1y",
        name: "True Supporter",
        role: "basic",
        price: 149.99,
        currency: "usd",
      },
    });
    expect(dialogPeriods(yearly)).toEqual(["annual"]);
    expect(initialPeriod(yearly)).toBe("annual");
    // Even if monthly plans were offered, a yearly subscriber isn't shown them.
    expect(planOptions(yearly, "monthly")).toEqual([]);
    expect(planOptions(yearly, "annual").map((o) => o.plan_id)).toEqual([
      "minimal-1y",
      "basic-1y",
      "premium-1y",
    ]);
  });

  it("lists the frequency's plans lowest tier first, each with its price, the current one marked", () => {
    const options = planOptions(sub(), "monthly");
    expect(options.map((o) => [o.plan_id, o.price, o.current])).toEqual([
      ["minimal-1m", "$4.99", false],
      ["basic-1m", "$15.00", true],
      ["premium-1m", "$24.99", false],
    ]);
  });

  it("explains a prorated charge now when upgrade_price is above 0, else the next billing cycle", () => {
    const options = planOptions(
      sub({ available_plans: [plan("basic-1m", "basic", 15), plan("premium-1m", "premium", 24.99, 6.5)] }),
      "monthly",
    );
    expect(options.find((o) => o.plan_id === "premium-1m")?.note).toBe(
      "$6.50 charged now, prorated, plus taxes.",
    );
    expect(planOptions(sub(), "monthly").find((o) => o.plan_id === "minimal-1m")?.note).toBe(
      "Takes effect at the next billing cycle.",
    );
  });

  it("marks the plan a waiting change switches to", () => {
    const waiting = sub({
      next_product: {
        plan_id: "minimal-1m",
        name: "Get a Taste",
        role: "minimal",
        price: 4.99,
        currency: "usd",
      },
    });
    expect(
      planOptions(waiting, "monthly")
        .filter((o) => o.scheduled)
        .map((o) => o.plan_id),
    ).toEqual(["minimal-1m"]);
  });
});

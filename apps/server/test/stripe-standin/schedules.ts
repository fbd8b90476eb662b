import { cardError, declinedError } from "./cards.ts";
import { int, invalid, list, mergeMetadata, need, obj, type Params, StripeFailure, str } from "./form.ts";
import type { Payments } from "./payments.ts";
import type { Store } from "./store.ts";
import { addInterval, addMonths, type Subscriptions } from "./subscriptions.ts";
import type { SchedulePhase, Subscription, SubscriptionSchedule } from "./types.ts";

export interface AdvanceOptions {
  /** Decline the renewal's charge whatever the card (e.g. to test the grace period and a rebill). */
  fail?: boolean;
}

/**
 * Subscription schedules (a change that waits for the period's end) and the test clock: advancing
 * a subscription ends its period now, the way Stripe's renewal would.
 */
export class Schedules {
  constructor(
    private store: Store,
    private payments: Payments,
    private subscriptions: Subscriptions,
  ) {}

  create(params: Params): SubscriptionSchedule {
    const { store } = this;
    const sub = store.need(need(params, "from_subscription"), "subscription", "from_subscription");
    if (sub.schedule) {
      throw invalid(
        `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
        "from_subscription",
      );
    }
    const item = sub.items.data[0];
    if (!item || !["active", "past_due", "trialing"].includes(sub.status)) {
      throw invalid(`A subscription with status ${sub.status} cannot get a schedule.`, "from_subscription");
    }
    const schedule: SubscriptionSchedule = store.put({
      id: store.id("sub_sched"),
      object: "subscription_schedule",
      created: store.now(),
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
      customer: sub.customer,
      end_behavior: "release",
      livemode: false,
      metadata: {},
      phases: [
        {
          discounts: sub.discounts.map((d) => ({ coupon: null, discount: d, promotion_code: null })),
          end_date: item.current_period_end,
          items: sub.items.data.map((it) => ({ price: it.price.id, quantity: it.quantity, metadata: {} })),
          metadata: {},
          start_date: item.current_period_start,
        },
      ],
      released_at: null,
      released_subscription: null,
      status: "active",
      subscription: sub.id,
    });
    this.attach(sub, schedule.id);
    store.emit("subscription_schedule.created", schedule);
    return schedule;
  }

  private attach(sub: Subscription, scheduleId: string | null) {
    const before = structuredClone(sub);
    sub.schedule = scheduleId;
    this.store.emit("customer.subscription.updated", sub, this.store.changedFrom(before, sub));
  }

  update(id: string, params: Params): SubscriptionSchedule {
    const { store } = this;
    const schedule = store.need(id, "subscription_schedule");
    if (schedule.status !== "active")
      throw invalid(`You cannot update a schedule with status ${schedule.status}.`);
    const end = str(params.end_behavior);
    if (end === "release" || end === "cancel") schedule.end_behavior = end;
    schedule.metadata = mergeMetadata(schedule.metadata, params.metadata);
    const given = list(params.phases).map((p) => obj(p));
    if (given.length > 0) {
      const phases: SchedulePhase[] = [];
      given.forEach((p, i) => {
        const param = `phases[${i}]`;
        const start =
          i === 0
            ? (int(p.start_date, `${param}[start_date]`) ?? store.now())
            : (phases[i - 1]?.end_date ?? 0);
        if (i === 0 && schedule.current_phase && start !== schedule.current_phase.start_date) {
          throw invalid("You can not modify the start date of the current phase.", `${param}[start_date]`);
        }
        const items = list(p.items).map((entry, j) => {
          const item = obj(entry);
          const price = store.need(need(item, "price"), "price", `${param}[items][${j}][price]`);
          return { price: price.id, quantity: int(item.quantity, "quantity") ?? 1, metadata: {} };
        });
        const first = store.get(items[0]?.price ?? "", "price");
        if (!first)
          throw invalid("Each phase needs at least one item.", `${param}[items]`, "parameter_missing");
        const duration = obj(p.duration);
        const interval = str(duration.interval);
        if (interval && interval !== "month" && interval !== "year") {
          throw invalid(
            "The stand-in schedules phases in months or years only.",
            `${param}[duration][interval]`,
          );
        }
        const count = int(duration.interval_count, `${param}[duration][interval_count]`) ?? 1;
        const endDate =
          int(p.end_date, `${param}[end_date]`) ??
          (interval ? addMonths(start, (interval === "year" ? 12 : 1) * count) : addInterval(start, first));
        if (endDate <= start) throw invalid("A phase must end after it starts.", `${param}[end_date]`);
        phases.push({
          discounts: list(p.discounts).map((d) => {
            const o = obj(d);
            return {
              coupon: str(o.coupon) ?? null,
              discount: str(o.discount) ?? null,
              promotion_code: str(o.promotion_code) ?? null,
            };
          }),
          end_date: endDate,
          items,
          // Kept as given: an empty value unsets that key on the subscription when the phase starts.
          metadata: Object.fromEntries(Object.entries(obj(p.metadata)).map(([k, v]) => [k, str(v) ?? ""])),
          start_date: start,
        });
      });
      schedule.phases = phases;
      const current = phases[0];
      if (current) schedule.current_phase = { start_date: current.start_date, end_date: current.end_date };
    }
    store.emit("subscription_schedule.updated", schedule);
    return schedule;
  }

  release(id: string): SubscriptionSchedule {
    const { store } = this;
    const schedule = store.need(id, "subscription_schedule");
    if (schedule.status !== "active")
      throw invalid(`You cannot release a schedule with status ${schedule.status}.`);
    const sub = schedule.subscription ? store.get(schedule.subscription, "subscription") : undefined;
    schedule.status = "released";
    schedule.released_at = store.now();
    schedule.released_subscription = schedule.subscription;
    schedule.subscription = null;
    schedule.current_phase = null;
    store.emit("subscription_schedule.released", schedule);
    if (sub) this.attach(sub, null);
    return schedule;
  }

  /** Moves a scheduled subscription into its next phase, or releases it after the last one. */
  private enterNextPhase(sub: Subscription) {
    const { store } = this;
    const schedule = sub.schedule ? store.get(sub.schedule, "subscription_schedule") : undefined;
    if (schedule?.status !== "active") return;
    const index = schedule.phases.findIndex((p) => p.start_date === schedule.current_phase?.start_date);
    const next = schedule.phases[index + 1];
    if (!next) {
      schedule.status = "released";
      schedule.released_at = store.now();
      schedule.released_subscription = sub.id;
      schedule.subscription = null;
      schedule.current_phase = null;
      sub.schedule = null;
      store.emit("subscription_schedule.released", schedule);
      return;
    }
    schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
    sub.metadata = mergeMetadata(sub.metadata, next.metadata);
    next.items.forEach((entry, i) => {
      const item = sub.items.data[i];
      const price = store.get(entry.price, "price");
      if (item && price) {
        item.price = structuredClone(price);
        item.quantity = entry.quantity;
      }
    });
  }

  /**
   * The test clock: the subscription's period ends now. One cancelled at period end ends; one
   * still past due after its retries is cancelled (Stripe's default); else a scheduled phase
   * starts and the next period is invoiced and charged off-session.
   */
  advance(id: string, options: AdvanceOptions = {}): Subscription {
    const { store, payments, subscriptions } = this;
    const sub = store.need(id, "subscription");
    if (!["active", "past_due", "trialing"].includes(sub.status)) {
      throw new Error(`advanceClock: subscription ${id} is ${sub.status}; only a running one renews.`);
    }
    if (sub.cancel_at_period_end || sub.status === "past_due") return subscriptions.cancel(id);
    const before = structuredClone(sub);
    this.enterNextPhase(sub);
    const now = store.now();
    const lines = sub.items.data.map((item) => {
      item.current_period_start = now;
      item.current_period_end = addInterval(now, item.price);
      return {
        description: `${item.quantity} × ${item.price.nickname ?? item.price.id}`,
        amount: item.price.unit_amount * item.quantity,
        price: item.price,
        quantity: item.quantity,
        period: { start: now, end: item.current_period_end },
      };
    });
    const invoice = subscriptions.invoiceFor(sub, lines, "subscription_cycle");
    const card = subscriptions.cardOf(sub);
    const pi = payments.finalize(invoice, card);
    sub.latest_invoice = invoice.id;
    if (pi) {
      try {
        if (card && !options.fail) payments.charge(pi, card, { offSession: true });
        else
          payments.refuse(
            pi,
            card ? declinedError() : cardError("payment_method_missing", "There is no card to charge."),
          );
      } catch (failure) {
        if (!(failure instanceof StripeFailure)) throw failure;
        sub.status = "past_due";
      }
    }
    store.emit("customer.subscription.updated", sub, store.changedFrom(before, sub));
    return sub;
  }
}

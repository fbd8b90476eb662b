import { randomUUID } from "node:crypto";
import type { GrantSubscription, Subscription, SubscriptionActionRequest } from "@hearth/contract";
import { and, inArray, lte } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import type { PaymentProvider, ProviderSubscription } from "../../ports/payments.ts";
import { findViewer, lockAccount, type Viewer } from "../accounts/index.ts";
import { CardSubscriptions } from "./card-subscriptions.ts";
import type { BillingAction } from "./entitlements.ts";
import {
  applyChange,
  type Change,
  conflict,
  dateOf,
  inTransaction,
  type Ledger,
  type OtherTier,
  planOf,
} from "./ledger.ts";
import type { PlanCatalog, PlanSpec } from "./plans.ts";
import { toSubscription } from "./present.ts";
import {
  appendBillingEvent,
  firstOrderIdOf,
  insertSubscription,
  liveSubscription,
  stickySubscription,
  updateSubscription,
} from "./queries.ts";
import { type SubscriptionRow, subscriptions } from "./schema.ts";

const addMonths = (from: Date, months: number) => {
  const at = new Date(from);
  at.setUTCMonth(at.getUTCMonth() + months);
  return at;
};

/**
 * Subscriptions and what they grant (decision 012): every change appends a billing event, runs
 * the state machine and writes the member's role and standing, in one transaction (ledger.ts).
 * Manual subscriptions (an administrator records payments) change here; card ones go through
 * their provider first (card-subscriptions.ts).
 */
export class BillingService {
  private ledger: Ledger;
  private cards: CardSubscriptions | null;

  constructor(
    private deps: { db: Db; plans: PlanCatalog; card?: PaymentProvider | null; otherTier?: OtherTier },
  ) {
    this.ledger = { plans: deps.plans, otherTier: deps.otherTier ?? (async () => null) };
    this.cards = deps.card
      ? new CardSubscriptions({ db: deps.db, card: deps.card, ledger: this.ledger })
      : null;
  }

  /** The plan, or 400 when there is no such plan. */
  plan(planId: string): PlanSpec {
    return planOf(this.deps.plans, planId);
  }

  private apply(tx: Db, row: SubscriptionRow, change: Change, now: Date): Promise<SubscriptionRow> {
    return applyChange(tx, this.ledger, row, change, now);
  }

  private transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return inTransaction(this.deps.db, work);
  }

  async sticky(viewer: Viewer): Promise<Subscription[]> {
    const row = await stickySubscription(this.deps.db, viewer.id);
    if (!row) return [];
    const shown = toSubscription(row, await firstOrderIdOf(this.deps.db, row.id), this.deps.plans);
    const cards = this.cardsFor(row);
    if (cards) {
      // What an upgrade charges now comes from the provider's proration (a downgrade waits: 0).
      for (const option of shown.available_plans) {
        const price = await cards.upgradePrice(row, option.plan_id);
        if (price !== null) option.upgrade_price = price;
      }
    }
    return [shown];
  }

  /** POST /api/admin/subscriptions: months paid outside Hearth, or gifted, on the manual provider. */
  async grant(admin: Viewer, input: GrantSubscription, now = new Date()): Promise<Subscription> {
    const row = await this.transaction((tx) => this.grantIn(tx, admin, input, now));
    return toSubscription(row, null, this.deps.plans);
  }

  /** The grant inside a caller's transaction (checkout's confirmed manual order). */
  async grantIn(tx: Db, admin: Viewer, input: GrantSubscription, now = new Date()): Promise<SubscriptionRow> {
    const plan = this.plan(input.plan_id);
    const member = await findViewer(tx, input.user_id);
    if (!member) throw notFound("No such user.");
    if (member.isGuest) throw conflict("Guests cannot hold a subscription. They need to sign up first.");
    if (!(await lockAccount(tx, member.id))) throw notFound("No such user.");
    let live = await liveSubscription(tx, member.id, { lock: true });
    if (live && live.provider !== "manual") {
      throw conflict("This member pays through a payment provider; change the subscription there.");
    }
    const change = (type: string, action: BillingAction): Change => ({
      provider: "manual",
      eventId: `manual:${randomUUID()}`,
      type,
      action,
      actorUserId: admin.id,
      payload: { months: input.months, plan_id: plan.planId },
    });
    if (!live) {
      live = await insertSubscription(tx, {
        userId: member.id,
        provider: "manual",
        planId: plan.planId,
        status: "incomplete",
        period: plan.period,
        currency: plan.currency,
        amount: plan.amount,
      });
    } else if (live.planId !== plan.planId) {
      if (live.status === "cancelled")
        live = await this.apply(tx, live, change("manual.uncancel", { type: "uncancel" }), now);
      live = await this.apply(
        tx,
        live,
        change("manual.change_plan", { type: "changePlan", planId: plan.planId, immediate: true }),
        now,
      );
    }
    // Months run on from the end of what is paid already, or from now.
    const from = live.recurAt && live.recurAt > now ? live.recurAt : now;
    return this.apply(
      tx,
      live,
      change("manual.paid", { type: "paid", recurAt: addMonths(from, input.months) }),
      now,
    );
  }

  /** The card subscriptions behind a row, or null for a manual one. */
  private cardsFor(row: SubscriptionRow): CardSubscriptions | null {
    return row.provider === "stripe" ? this.cards : null;
  }

  /** A webhook's, a settled order's or the re-sync's view of a card subscription (CardSubscriptions.sync). */
  syncProvider(
    remote: ProviderSubscription,
    event: { id: string; type: string; forUser?: string },
    now = new Date(),
  ): Promise<SubscriptionRow | null> {
    return this.cards ? this.cards.sync(remote, event, now) : Promise.resolve(null);
  }

  /** Repairs card subscriptions whose webhooks went missing; 0 where no card provider is set up. */
  resync(now = new Date()): Promise<number> {
    return this.cards ? this.cards.resync(now) : Promise.resolve(0);
  }

  /** PUT /api/subscriptions/sticky on the member's own subscription. */
  async act(viewer: Viewer, body: SubscriptionActionRequest, now = new Date()) {
    const current = await liveSubscription(this.deps.db, viewer.id);
    const cards = current ? this.cardsFor(current) : null;
    if (current && cards && current.id === body.subscription_id) return cards.act(current, body);
    return this.transaction(async (tx) => {
      const live = await liveSubscription(tx, viewer.id, { lock: true });
      if (!live || live.id !== body.subscription_id) throw notFound("No such subscription.");
      const own = (type: string, action: BillingAction): Change => ({
        provider: live.provider,
        eventId: `member:${randomUUID()}`,
        type,
        action,
        actorUserId: viewer.id,
      });
      let row: SubscriptionRow;
      let message: string;
      switch (body.action) {
        case "cancel":
          row = await this.apply(tx, live, own("member.cancel", { type: "cancel" }), now);
          message =
            row.status === "cancelled"
              ? `Your subscription is cancelled. You keep your benefits until ${dateOf(row.recurAt)}.`
              : "Your subscription has ended.";
          break;
        case "uncancel":
          row = await this.apply(tx, live, own("member.uncancel", { type: "uncancel" }), now);
          message = "Your subscription is active again.";
          break;
        case "change_plan": {
          const target = this.plan(body.plan_id ?? "");
          if (live.period === "annual" && target.period !== "annual") {
            throw conflict("Yearly subscribers can change only to another yearly plan.");
          }
          // Without a card there is nothing to prorate: the manual provider changes at the next cycle.
          row = await this.apply(
            tx,
            live,
            own("member.change_plan", { type: "changePlan", planId: target.planId, immediate: false }),
            now,
          );
          message =
            row.nextPlanId === null
              ? "Your plan stays as it is."
              : `Your plan changes to ${target.planId} on ${dateOf(row.recurAt)}.`;
          break;
        }
        case "change_card":
        case "charge_rebill":
          throw conflict(
            "An administrator records this subscription's payments: there is no card on it. Please contact the site's administrators.",
          );
      }
      return { status: "SUCCESS" as const, subscription_status: row.status, message };
    });
  }

  /**
   * Account deletion (accounts' AccountDeletionHook): the provider stops charging, and the
   * subscription ends with the account. The rows stay, without the user, as the money trail.
   */
  onAccountDeletion = async (tx: Db, userId: string) => {
    const live = await liveSubscription(tx, userId, { lock: true });
    if (!live) return null;
    const cards = this.cardsFor(live);
    if (cards && live.providerSubscriptionId && live.status !== "cancelled") {
      await cards.provider.cancel(live.providerSubscriptionId);
    }
    await appendBillingEvent(tx, {
      provider: live.provider,
      providerEventId: `account-deleted:${live.id}`,
      type: "account.deleted",
      subscriptionId: live.id,
      userId,
      payload: { status_before: live.status },
    });
    await updateSubscription(tx, live.id, { status: "expired", nextPlanId: null });
    return null;
  };

  /** Expires cancelled and grace subscriptions whose paid period is over (run by a timer). */
  async sweep(now = new Date()): Promise<number> {
    const due = await this.deps.db
      .select({ id: subscriptions.id, userId: subscriptions.userId })
      .from(subscriptions)
      .where(and(inArray(subscriptions.status, ["cancelled", "grace"]), lte(subscriptions.recurAt, now)));
    let expired = 0;
    for (const { id, userId } of due) {
      if (!userId) continue;
      await this.transaction(async (tx) => {
        const live = await liveSubscription(tx, userId, { lock: true });
        if (!live || live.id !== id) return;
        const row = await this.apply(
          tx,
          live,
          {
            provider: live.provider,
            eventId: `period-ended:${id}:${live.recurAt?.toISOString()}`,
            type: "period_ended",
            action: { type: "periodEnded" },
          },
          now,
        );
        if (row.status === "expired") expired += 1;
      });
    }
    return expired;
  }
}

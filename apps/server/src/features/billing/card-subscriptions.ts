import { randomUUID } from "node:crypto";
import type { SubscriptionActionRequest } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { OrderOutcome, PaymentProvider, ProviderSubscription } from "../../ports/payments.ts";
import { lockAccount } from "../accounts/index.ts";
import type { BillingAction } from "./entitlements.ts";
import { transition } from "./entitlements.ts";
import { applyChange, conflict, dateOf, inTransaction, type Ledger, planOf } from "./ledger.ts";
import {
  insertSubscription,
  liveProviderSubscriptions,
  liveSubscription,
  subscriptionByProviderId,
  updateSubscription,
} from "./queries.ts";
import type { SubscriptionRow } from "./schema.ts";

/**
 * Subscriptions a card provider (Stripe) charges: the provider is the truth of their state, so
 * every change goes to it first and its answer is synced into Hearth's row, as webhooks and the
 * periodic re-sync are.
 */
export class CardSubscriptions {
  constructor(private deps: { db: Db; card: PaymentProvider; ledger: Ledger }) {}

  get provider(): PaymentProvider {
    return this.deps.card;
  }

  /**
   * Brings Hearth's row in line with the provider's view of a subscription (a webhook, a settled
   * order, the re-sync); `eventId` makes a replay a no-op. An unknown subscription is created only
   * for `forUser` (a checkout that just paid); a webhook about one Hearth never saw is ignored.
   */
  async sync(
    remote: ProviderSubscription,
    event: { id: string; type: string; forUser?: string },
    now = new Date(),
  ): Promise<SubscriptionRow | null> {
    const { card, ledger } = this.deps;
    return inTransaction(this.deps.db, async (tx) => {
      let row = await subscriptionByProviderId(tx, card.name, remote.id);
      if (!row) {
        if (!event.forUser) return null;
        if (!(await lockAccount(tx, event.forUser))) return null;
        // A webhook and the member's own confirmation can settle the same payment at once: the
        // account's lock orders them, and the second finds the row the first made.
        row = await subscriptionByProviderId(tx, card.name, remote.id);
      }
      if (!row) {
        if (!event.forUser) return null;
        const live = await liveSubscription(tx, event.forUser, { lock: true });
        if (live?.status === "incomplete") {
          // An earlier checkout that never paid gives way to this one.
          await updateSubscription(tx, live.id, { status: "expired" });
        } else if (live) {
          throw conflict("You already have a subscription. Manage it from the subscription portal.");
        }
        const plan = planOf(ledger.plans, remote.planId);
        row = await insertSubscription(tx, {
          userId: event.forUser,
          provider: card.name,
          providerCustomerId: remote.customerId,
          providerSubscriptionId: remote.id,
          planId: plan.planId,
          status: "incomplete",
          period: plan.period,
          currency: plan.currency,
          amount: plan.amount,
        });
      }
      const synced = await applyChange(
        tx,
        ledger,
        row,
        {
          provider: card.name,
          eventId: event.id,
          type: event.type,
          action: { type: "synced", remote },
          payload: { remote_status: remote.status },
        },
        now,
      );
      if (!remote.card) return synced;
      return updateSubscription(tx, synced.id, {
        cardBrand: remote.card.brand,
        cardLast4: remote.card.last4,
        cardExp: remote.card.exp,
        cardDeleted: false,
      });
    });
  }

  /** Asks the provider for every live card subscription and repairs what missed webhooks left. */
  async resync(now = new Date()): Promise<number> {
    const { card } = this.deps;
    let repaired = 0;
    for (const row of await liveProviderSubscriptions(this.deps.db, card.name)) {
      if (!row.providerSubscriptionId) continue;
      const remote = await card.fetchSubscription(row.providerSubscriptionId);
      if (!remote) continue;
      const drifted =
        remote.status !== row.status ||
        remote.planId !== row.planId ||
        remote.nextPlanId !== row.nextPlanId ||
        remote.recurAt?.getTime() !== row.recurAt?.getTime();
      if (!drifted) continue;
      // The id names the state reached, so a second pass over the same drift changes nothing.
      const id = `resync:${remote.id}:${remote.status}:${remote.planId}:${remote.recurAt?.toISOString()}`;
      if (await this.sync(remote, { id, type: "resync" }, now)) repaired += 1;
    }
    return repaired;
  }

  /** What an upgrade to each dearer plan charges now, from the provider's proration. */
  async upgradePrice(row: SubscriptionRow, planId: string): Promise<number | null> {
    const plan = this.deps.ledger.plans.find(planId);
    if (!row.providerSubscriptionId || row.status !== "active") return null;
    if (!plan || planId === row.planId || plan.amount <= row.amount) return null;
    const preview = await this.deps.card.previewChange(row.providerSubscriptionId, planId);
    return preview.amountDue / 100;
  }

  /** A member's action on their card subscription goes to the provider; its answer is the new state. */
  async act(live: SubscriptionRow, body: SubscriptionActionRequest) {
    const { card, ledger } = this.deps;
    const providerId = live.providerSubscriptionId;
    if (!providerId) throw conflict("This subscription has not started yet.");
    const guard = (action: BillingAction) =>
      transition(
        { status: live.status, planId: live.planId, nextPlanId: live.nextPlanId, recurAt: live.recurAt },
        action,
        new Date(),
      );
    let remote: ProviderSubscription | null;
    let message: string;
    switch (body.action) {
      case "cancel":
        guard({ type: "cancel" });
        remote = await card.cancel(providerId);
        message = `Your subscription is cancelled. You keep your benefits until ${dateOf(remote.recurAt)}.`;
        break;
      case "uncancel":
        guard({ type: "uncancel" });
        remote = await card.uncancel(providerId);
        message = "Your subscription is active again.";
        break;
      case "change_plan": {
        const target = planOf(ledger.plans, body.plan_id ?? "");
        if (live.period === "annual" && target.period !== "annual")
          throw conflict("Yearly subscribers can change only to another yearly plan.");
        guard({ type: "changePlan", planId: target.planId, immediate: false });
        remote = await card.changePlan(providerId, target.planId);
        message =
          remote.planId === target.planId
            ? "Your plan has changed. The difference was charged to your card."
            : `Your plan changes to ${target.planId} on ${dateOf(remote.recurAt)}.`;
        break;
      }
      case "change_card":
        if (live.status === "expired") throw conflict("Your subscription has expired.");
        remote = await card.changeCard(providerId, body.card_token ?? "");
        message = "Your card has been updated.";
        break;
      case "charge_rebill": {
        if (live.status !== "grace") throw conflict("There is no overdue payment on this subscription.");
        const outcome: OrderOutcome = await card.chargeRebill(providerId);
        if (outcome.status !== "approved") {
          throw new HttpError(
            402,
            "paymentFailed",
            outcome.status === "failed"
              ? outcome.message
              : "Your bank asks you to confirm this payment. Pay it from checkout instead.",
          );
        }
        remote = await card.fetchSubscription(providerId);
        message = "Thank you: the overdue payment went through.";
        break;
      }
    }
    const row = remote
      ? await this.sync(remote, { id: `member:${randomUUID()}`, type: `member.${body.action}` })
      : null;
    return { status: "SUCCESS" as const, subscription_status: (row ?? live).status, message };
  }
}

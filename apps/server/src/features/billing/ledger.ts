import type { PaidRole } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { setEntitlement } from "../accounts/index.ts";
import { type BillingAction, type Entitlement, entitlementOf, transition } from "./entitlements.ts";
import type { PlanCatalog, PlanSpec } from "./plans.ts";
import { appendBillingEvent, updateSubscription } from "./queries.ts";
import type { SubscriptionRow } from "./schema.ts";

/** One change to apply: the event that records it and the state machine's action. */
export interface Change {
  provider: SubscriptionRow["provider"];
  /** The provider's event id, or one made here for Hearth's own actions; a repeat is a no-op. */
  eventId: string;
  type: string;
  action: BillingAction;
  actorUserId?: string | null;
  payload?: Record<string, unknown>;
}

/**
 * The tier something other than a subscription grants the member (a linked pledge), read inside
 * the change's transaction; null when nothing does.
 */
export type OtherTier = (tx: Db, userId: string) => Promise<PaidRole | null>;

export interface Ledger {
  plans: PlanCatalog;
  otherTier: OtherTier;
}

export const conflict = (message: string) => new HttpError(409, "conflict", message);
export const dateOf = (at: Date | null) => (at ? at.toISOString().slice(0, 10) : "the end of the period");

/** The plan, or 400 when there is no such plan. */
export function planOf(plans: PlanCatalog, planId: string): PlanSpec {
  const plan = plans.find(planId);
  if (!plan)
    throw new HttpError(400, "invalidRequest", "There is no such plan.", [
      { path: "plan_id", message: "There is no such plan." },
    ]);
  return plan;
}

export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((txn) => work(txn as unknown as Db));
}

/**
 * Applies one change to a locked subscription (decision 012): the event is appended, the state
 * machine runs, and the member's role and standing are written from the result. A replayed event
 * changes nothing. A subscription that grants nothing (ended, never paid) leaves a linked pledge's
 * tier in place rather than dropping the member to free.
 */
export async function applyChange(
  tx: Db,
  ledger: Ledger,
  row: SubscriptionRow,
  change: Change,
  now: Date,
): Promise<SubscriptionRow> {
  const event = await appendBillingEvent(tx, {
    provider: change.provider,
    providerEventId: change.eventId,
    type: change.type,
    subscriptionId: row.id,
    userId: row.userId,
    actorUserId: change.actorUserId ?? null,
    payload: { action: change.action, ...change.payload },
  });
  if (!event) return row;
  const next = transition(
    { status: row.status, planId: row.planId, nextPlanId: row.nextPlanId, recurAt: row.recurAt },
    change.action,
    now,
  );
  const plan = planOf(ledger.plans, next.planId);
  const updated = await updateSubscription(tx, row.id, {
    ...next,
    period: plan.period,
    amount: plan.amount,
    currency: plan.currency,
  });
  if (updated.userId) {
    await setEntitlement(tx, updated.userId, await withOtherTier(tx, ledger, updated.userId, next));
  }
  return updated;
}

async function withOtherTier(
  tx: Db,
  ledger: Ledger,
  userId: string,
  state: Parameters<typeof entitlementOf>[0],
): Promise<Entitlement> {
  const entitlement = entitlementOf(state, (planId) => planOf(ledger.plans, planId).role);
  if (entitlement.role !== "free") return entitlement;
  const other = await ledger.otherTier(tx, userId);
  return other ? { role: other, status: "active" } : entitlement;
}

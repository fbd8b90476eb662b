import type { AccountStatus, PaidRole, SubscriberRole } from "@hearth/contract";
import { HttpError } from "../../http/errors.ts";
import type { SUBSCRIPTION_STATUSES } from "./schema.ts";

/**
 * The subscription state machine (accounts-billing-admin §4): what each provider event or member
 * action does to a subscription, and the role and standing the users row gets from it. Pure:
 * the billing service applies it inside the transaction that appends the billing event.
 */

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface SubscriptionState {
  status: SubscriptionStatus;
  planId: string;
  nextPlanId: string | null;
  /** The end of the paid period. */
  recurAt: Date | null;
}

export type BillingAction =
  /** A period was paid for: the first payment, a renewal or a successful rebill. */
  | { type: "paid"; recurAt: Date }
  /** A charge failed: an active subscription falls into grace. */
  | { type: "paymentFailed" }
  | { type: "cancel" }
  | { type: "uncancel" }
  /** The paid period is over without a payment: cancelled and grace subscriptions expire. */
  | { type: "periodEnded" }
  /** Upgrades apply now (prorated); downgrades wait for the period's end. */
  | { type: "changePlan"; planId: string; immediate: boolean }
  /**
   * The payment provider's own view (a webhook, a settled order, the re-sync): it holds the
   * money, so its state wins, except that it cannot revive a subscription Hearth has expired.
   */
  | { type: "synced"; remote: Omit<SubscriptionState, "recurAt"> & { recurAt: Date | null } };

const refused = (message: string) => new HttpError(409, "conflict", message);

/** The next state, or 409 with a sentence when the action cannot apply now. */
export function transition(state: SubscriptionState, action: BillingAction, now: Date): SubscriptionState {
  const { status } = state;
  switch (action.type) {
    case "paid":
      if (status === "expired") throw refused("This subscription has ended; subscribe again to restart it.");
      // A renewal applies a downgrade that was waiting for the period's end.
      return {
        ...state,
        status: status === "cancelled" ? "cancelled" : "active",
        planId: status === "incomplete" ? state.planId : (state.nextPlanId ?? state.planId),
        nextPlanId: null,
        recurAt: action.recurAt,
      };
    case "paymentFailed":
      return status === "active" ? { ...state, status: "grace" } : state;
    case "cancel":
      if (status === "expired") throw refused("Your subscription has expired.");
      if (status === "active" || status === "cancelled")
        return { ...state, status: "cancelled", nextPlanId: null };
      // Nothing paid to keep: an unpaid or failed subscription ends at once.
      return { ...state, status: "expired", nextPlanId: null };
    case "uncancel":
      if (status === "active") return state;
      if (status !== "cancelled" || (state.recurAt && state.recurAt <= now)) {
        throw refused("Only a cancelled subscription that has not ended yet can be re-enabled.");
      }
      return { ...state, status: "active" };
    case "periodEnded":
      if (state.recurAt && state.recurAt > now) return state;
      return status === "cancelled" || status === "grace" ? { ...state, status: "expired" } : state;
    case "synced": {
      const { remote } = action;
      if (status === "expired" && remote.status !== "expired") return state;
      // A provider still collecting the first payment says nothing new about a paid subscription.
      if (remote.status === "incomplete" && status !== "incomplete") return state;
      // Only the state's own fields: the provider's object carries its ids and card too.
      return {
        status: remote.status,
        planId: remote.planId,
        nextPlanId: remote.nextPlanId,
        recurAt: remote.recurAt ?? state.recurAt,
      };
    }
    case "changePlan":
      if (status !== "active") {
        throw refused(
          status === "cancelled"
            ? "Re-enable your subscription before changing its plan."
            : "Your subscription is not active; its plan cannot be changed.",
        );
      }
      if (action.planId === state.planId) {
        if (state.nextPlanId === null) throw refused("That is your current plan.");
        return { ...state, nextPlanId: null };
      }
      return action.immediate
        ? { ...state, planId: action.planId, nextPlanId: null }
        : { ...state, nextPlanId: action.planId };
  }
}

export interface Entitlement {
  role: SubscriberRole;
  status: AccountStatus;
}

/**
 * What the users row says for a member with this subscription (or none): the plan's role while
 * active, cancelled (until recur_at) or in grace; free once expired. The permission code reads
 * role and status (accounts/permissions.ts: active and cancelled grant the role's features).
 */
export function entitlementOf(
  state: SubscriptionState | null,
  roleOfPlan: (planId: string) => PaidRole,
): Entitlement {
  if (!state || state.status === "incomplete") return { role: "free", status: "inactive" };
  if (state.status === "expired") return { role: "free", status: "expired" };
  return { role: roleOfPlan(state.planId), status: state.status };
}

import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import type { Viewer } from "../accounts/index.ts";
import { redeemCoupon } from "./coupons.ts";
import { inTransaction } from "./ledger.ts";
import { orderById, updateOrder } from "./order-queries.ts";
import type { OrderRow } from "./schema.ts";
import type { BillingService } from "./service.ts";

/**
 * Administrators: the money for a manual order arrived, so its plan's period starts now. The
 * coupon's use, the months granted and the order's settling are one transaction on the locked
 * order: two administrators pressing at once grant the months once.
 */
export function markReceived(
  deps: { db: Db; billing: BillingService },
  admin: Viewer,
  orderId: string,
  now = new Date(),
): Promise<OrderRow> {
  return inTransaction(deps.db, async (tx) => {
    const order = await orderById(tx, orderId, { lock: true });
    if (order?.provider !== "manual") throw notFound("No such manual order.");
    if (order.status !== "pending") throw new HttpError(409, "conflict", "This order is settled already.");
    if (!order.userId) throw new HttpError(409, "conflict", "The member who placed this order is gone.");
    const plan = deps.billing.plan(order.planId);
    if (order.couponCode && !(await redeemCoupon(tx, order.couponCode))) {
      throw new HttpError(
        409,
        "conflict",
        `The coupon ${order.couponCode} has run out since the order was placed.`,
      );
    }
    const granted = await deps.billing.grantIn(
      tx,
      admin,
      { user_id: order.userId, plan_id: plan.planId, months: plan.period === "annual" ? 12 : 1 },
      now,
    );
    return updateOrder(tx, order.id, { status: "approved", subscriptionId: granted.id });
  });
}

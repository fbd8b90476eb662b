import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type OrderRow, orders } from "./schema.ts";

export async function insertOrder(db: Db, values: typeof orders.$inferInsert): Promise<OrderRow> {
  const [row] = await db.insert(orders).values(values).returning();
  if (!row) throw new Error("the order was not stored");
  return row;
}

export async function updateOrder(
  db: Db,
  id: string,
  change: Partial<typeof orders.$inferInsert>,
): Promise<OrderRow> {
  const [row] = await db
    .update(orders)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(orders.id, id))
    .returning();
  if (!row) throw new Error(`order ${id} is gone`);
  return row;
}

/** An order, locked for the caller's transaction when asked (settling it once). */
export async function orderById(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<OrderRow | null> {
  const query = db.select().from(orders).where(eq(orders.id, id)).limit(1);
  const [row] = opts.lock ? await query.for("update") : await query;
  return row ?? null;
}

export async function orderByPayment(
  db: Db,
  provider: OrderRow["provider"],
  paymentId: string,
): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, provider), eq(orders.providerPaymentId, paymentId)))
    .limit(1);
  return row ?? null;
}

/** The member's newest paid order: its billing details pre-fill checkout. */
export async function latestPaidOrder(db: Db, userId: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, "approved")))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row ?? null;
}

/** Manual orders waiting for an administrator, oldest first. */
export async function pendingManualOrders(db: Db): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, "manual"), eq(orders.status, "pending")))
    .orderBy(orders.createdAt);
}

import { and, desc, eq, isNotNull, ne } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  type BillingEventRow,
  billingEvents,
  orders,
  type SubscriptionRow,
  subscriptions,
} from "./schema.ts";

/** The member's live (not expired) subscription, locked for the caller's transaction when asked. */
export async function liveSubscription(
  db: Db,
  userId: string,
  opts: { lock?: boolean } = {},
): Promise<SubscriptionRow | null> {
  const query = db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, "expired")))
    .limit(1);
  const [row] = opts.lock ? await query.for("update") : await query;
  return row ?? null;
}

/** The portal's subscription: the live one, else the newest (an expired one still shows as expired). */
export async function stickySubscription(db: Db, userId: string): Promise<SubscriptionRow | null> {
  const live = await liveSubscription(db, userId);
  if (live) return live;
  const [newest] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return newest ?? null;
}

export async function insertSubscription(
  tx: Db,
  values: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const [row] = await tx.insert(subscriptions).values(values).returning();
  if (!row) throw new Error("the subscription was not stored");
  return row;
}

export async function updateSubscription(
  tx: Db,
  id: string,
  change: Partial<typeof subscriptions.$inferInsert>,
): Promise<SubscriptionRow> {
  const [row] = await tx
    .update(subscriptions)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(subscriptions.id, id))
    .returning();
  if (!row) throw new Error(`subscription ${id} is gone`);
  return row;
}

/**
 * Appends one billing event; answers null when the provider's event id was seen before (a
 * replayed webhook), so the caller applies it only once.
 */
export async function appendBillingEvent(
  tx: Db,
  event: typeof billingEvents.$inferInsert,
): Promise<BillingEventRow | null> {
  const [row] = await tx.insert(billingEvents).values(event).onConflictDoNothing().returning();
  return row ?? null;
}

export async function billingEventsOf(db: Db, subscriptionId: string): Promise<BillingEventRow[]> {
  return db
    .select()
    .from(billingEvents)
    .where(eq(billingEvents.subscriptionId, subscriptionId))
    .orderBy(billingEvents.id);
}

/** The checkout order that started a subscription, for the portal's order_id. */
export async function firstOrderIdOf(db: Db, subscriptionId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.subscriptionId, subscriptionId))
    .orderBy(orders.createdAt)
    .limit(1);
  return row?.id ?? null;
}

/** A provider's subscription by its id there, locked for the caller's transaction. */
export async function subscriptionByProviderId(
  tx: Db,
  provider: SubscriptionRow["provider"],
  providerSubscriptionId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, provider),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    )
    .limit(1)
    .for("update");
  return row ?? null;
}

/** Every subscription with a provider that has not expired, for the re-sync. */
export async function liveProviderSubscriptions(
  db: Db,
  provider: SubscriptionRow["provider"],
): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), ne(subscriptions.status, "expired")));
}

/** The newest subscription at a card provider that still has a usable card: the card on file. */
export async function latestCardSubscription(
  db: Db,
  userId: string,
  provider: SubscriptionRow["provider"],
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.provider, provider),
        isNotNull(subscriptions.cardLast4),
        eq(subscriptions.cardDeleted, false),
      ),
    )
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ?? null;
}

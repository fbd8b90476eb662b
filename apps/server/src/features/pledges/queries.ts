import { type PaidRole, paidRole } from "@hearth/contract";
import { and, eq, gt, inArray, isNotNull, isNull, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type PledgeLinkRow, pledgeLinks, subscriptions } from "../billing/schema.ts";

// Pledge links live in billing's schema (decision 012 lists pledge_links with its tables); this
// feature is the only writer of that table. Subscriptions are only read here.

export async function linkOf(db: Db, userId: string, service: string): Promise<PledgeLinkRow | null> {
  const [row] = await db
    .select()
    .from(pledgeLinks)
    .where(and(eq(pledgeLinks.userId, userId), eq(pledgeLinks.service, service)))
    .limit(1);
  return row ?? null;
}

/** Who holds this platform account's link, if anyone. */
export async function linkByExternalId(
  db: Db,
  service: string,
  externalUserId: string,
): Promise<PledgeLinkRow | null> {
  const [row] = await db
    .select()
    .from(pledgeLinks)
    .where(and(eq(pledgeLinks.service, service), eq(pledgeLinks.externalUserId, externalUserId)))
    .limit(1);
  return row ?? null;
}

/** Records (or refreshes) the member's link to a platform account and the tier it grants now. */
export async function saveLink(
  tx: Db,
  link: Pick<PledgeLinkRow, "userId" | "service" | "externalUserId" | "role" | "checkedAt">,
): Promise<void> {
  await tx
    .insert(pledgeLinks)
    .values(link)
    .onConflictDoUpdate({
      target: [pledgeLinks.userId, pledgeLinks.service],
      set: { externalUserId: link.externalUserId, role: link.role, checkedAt: link.checkedAt },
    });
}

/** The pledge is gone: the link stays (the platform account is still theirs), granting nothing. */
export async function clearLinkRole(tx: Db, userId: string, service: string, at: Date): Promise<void> {
  await tx
    .update(pledgeLinks)
    .set({ role: null, checkedAt: at })
    .where(and(eq(pledgeLinks.userId, userId), eq(pledgeLinks.service, service)));
}

/**
 * Whether the member has a subscription that still grants its tier: active, cancelled or in
 * grace, with its paid period not over (the sweep may not have expired it yet). An `incomplete`
 * one (a checkout not paid) grants nothing, so it does not count.
 */
export async function hasLivePaidSubscription(db: Db, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.status, ["active", "cancelled", "grace"]),
        or(isNull(subscriptions.recurAt), gt(subscriptions.recurAt, now)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The tier the member's linked pledges grant (the highest, when several platforms are linked),
 * or null. Billing falls back to it when a subscription stops granting one.
 */
export async function pledgeTierOf(db: Db, userId: string): Promise<PaidRole | null> {
  const rows = await db
    .select({ role: pledgeLinks.role })
    .from(pledgeLinks)
    .where(and(eq(pledgeLinks.userId, userId), isNotNull(pledgeLinks.role)));
  let best: PaidRole | null = null;
  for (const { role } of rows) {
    if (role && (!best || paidRole.options.indexOf(role) > paidRole.options.indexOf(best))) best = role;
  }
  return best;
}

import type { Coupon, CreateCoupon } from "@hearth/contract";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { decimal } from "./plans.ts";
import { type CouponRow, coupons } from "./schema.ts";

/**
 * The site's own coupon codes (the manual provider; Stripe judges its promotion codes itself):
 * issued by administrators, judged at checkout, counted when an order is paid.
 */

export interface CouponVerdict {
  code: string;
  valid: boolean;
  error: string | null;
  /** What it takes off the amount, in the smallest unit. */
  discount: number;
}

export const INVALID_COUPON = "Invalid coupon";

export function judgeCoupon(
  row: CouponRow | undefined,
  code: string,
  planId: string,
  amount: number,
  now: Date,
) {
  const refused: CouponVerdict = { code, valid: false, error: INVALID_COUPON, discount: 0 };
  if (!row) return refused;
  if (row.expiresAt && row.expiresAt <= now) return refused;
  if (row.maxRedemptions !== null && row.redeemed >= row.maxRedemptions) return refused;
  if (row.planIds.length > 0 && !row.planIds.includes(planId)) return refused;
  const off = row.percentOff !== null ? Math.round((amount * row.percentOff) / 100) : (row.amountOff ?? 0);
  return { code: row.code, valid: true, error: null, discount: Math.min(off, amount) };
}

export async function findCoupon(db: Db, code: string): Promise<CouponRow | undefined> {
  const [row] = await db.select().from(coupons).where(eq(coupons.code, code.trim().toUpperCase())).limit(1);
  return row;
}

/** Counts one use, unless the code ran out meanwhile (then false: the order is refused). */
export async function redeemCoupon(tx: Db, code: string): Promise<boolean> {
  const used = await tx
    .update(coupons)
    .set({ redeemed: sql`${coupons.redeemed} + 1` })
    .where(
      sql`${coupons.code} = ${code} AND (${coupons.maxRedemptions} IS NULL OR ${coupons.redeemed} < ${coupons.maxRedemptions})`,
    )
    .returning({ code: coupons.code });
  return used.length > 0;
}

export const toCoupon = (row: CouponRow): Coupon => ({
  code: row.code,
  percent_off: row.percentOff,
  amount_off: row.amountOff === null ? null : decimal(row.amountOff),
  currency: row.currency,
  duration: row.duration,
  plan_ids: row.planIds,
  max_redemptions: row.maxRedemptions,
  redeemed: row.redeemed,
  expires_at: row.expiresAt?.toISOString() ?? null,
});

export async function listCoupons(db: Db): Promise<Coupon[]> {
  return (await db.select().from(coupons).orderBy(coupons.createdAt)).map(toCoupon);
}

export async function createCoupon(db: Db, input: CreateCoupon, adminId: string): Promise<Coupon> {
  const [row] = await db
    .insert(coupons)
    .values({
      code: input.code,
      percentOff: input.percent_off ?? null,
      amountOff: input.amount_off == null ? null : Math.round(input.amount_off * 100),
      duration: input.duration,
      planIds: input.plan_ids,
      maxRedemptions: input.max_redemptions ?? null,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      createdBy: adminId,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new HttpError(409, "conflict", `The code ${input.code} exists already.`);
  return toCoupon(row);
}

export async function deleteCoupon(db: Db, code: string): Promise<void> {
  const gone = await db.delete(coupons).where(eq(coupons.code, code)).returning({ code: coupons.code });
  if (gone.length === 0) throw notFound("No such coupon.");
}

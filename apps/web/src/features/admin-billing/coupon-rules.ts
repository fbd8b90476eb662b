import { type Coupon, type CreateCoupon, createCoupon } from "@hearth/contract";

/**
 * The coupon form as the administrator fills it, checked with the contract's own schema
 * (createCoupon) so the form refuses what the server would, with messages a person understands.
 */

export interface CouponFormValues {
  code: string;
  kind: "percent" | "amount";
  /** The percent or the amount, as typed. */
  value: string;
  duration: "once" | "forever";
  /** Empty: every plan. */
  planIds: string[];
  /** "" for no limit. */
  maxRedemptions: string;
  /** yyyy-mm-dd from a date input, "" for no expiry; the code works until that day ends. */
  expiresOn: string;
}

export type CouponField = keyof CouponFormValues;

export const emptyCouponForm: CouponFormValues = {
  code: "",
  kind: "percent",
  value: "",
  duration: "once",
  planIds: [],
  maxRedemptions: "",
  expiresOn: "",
};

const friendly: Partial<Record<string, string>> = {
  code: "Codes are 3 to 32 characters.",
  percent_off: "A percent off is a whole number from 1 to 100.",
  amount_off: "An amount off is more than 0 and at most 10,000.",
  max_redemptions: "A limit is a whole number from 1 to 1,000,000.",
  expires_at: "Choose a valid date.",
};

const fieldOf: Record<string, CouponField> = {
  code: "code",
  percent_off: "value",
  amount_off: "value",
  duration: "duration",
  plan_ids: "planIds",
  max_redemptions: "maxRedemptions",
  expires_at: "expiresOn",
};

const number = (text: string) => (text.trim() === "" ? null : Number(text.trim().replace(",", ".")));

/** The end of the chosen day in the browser's time zone, as the ISO instant the server takes. */
export function endOfDay(date: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(year, month - 1, day, 23, 59, 59);
  // A day that doesn't exist (2026-02-30) would roll over into the next month.
  return at.getMonth() === month - 1 && at.getDate() === day ? at.toISOString() : null;
}

export type CouponCheck =
  | { ok: true; body: CreateCoupon }
  | { ok: false; errors: Partial<Record<CouponField, string>> };

export function checkCouponForm(form: CouponFormValues, now: Date = new Date()): CouponCheck {
  const errors: Partial<Record<CouponField, string>> = {};
  const value = number(form.value);
  if (value === null)
    errors.value = form.kind === "percent" ? "Enter the percent off." : "Enter the amount off.";
  else if (!Number.isFinite(value)) errors.value = "Enter a number.";
  const limit = number(form.maxRedemptions);
  if (limit !== null && !Number.isFinite(limit)) errors.maxRedemptions = "Enter a number, or leave it empty.";
  const expires = form.expiresOn ? endOfDay(form.expiresOn) : null;
  if (form.expiresOn && !expires) errors.expiresOn = friendly.expires_at;
  else if (expires && Date.parse(expires) <= now.getTime())
    errors.expiresOn = "Choose a day that hasn't passed.";

  const parsed = createCoupon.safeParse({
    code: form.code,
    percent_off: form.kind === "percent" ? value : null,
    amount_off: form.kind === "amount" ? value : null,
    duration: form.duration,
    plan_ids: form.planIds,
    max_redemptions: limit,
    expires_at: expires,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      const field = fieldOf[key];
      if (!field || errors[field]) continue;
      // The schema's own sentence where it has one (the code's characters), else ours.
      errors[field] =
        issue.code === "invalid_format" || issue.code === "custom"
          ? issue.message
          : (friendly[key] ?? issue.message);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** "20% off" or "$5.00 off". */
export function discountLabel(coupon: Pick<Coupon, "percent_off" | "amount_off" | "currency">): string {
  if (coupon.percent_off !== null) return `${coupon.percent_off}% off`;
  const amount = coupon.amount_off ?? 0;
  try {
    return `${new Intl.NumberFormat("en-US", { style: "currency", currency: coupon.currency.toUpperCase() }).format(amount)} off`;
  } catch {
    return `${amount.toFixed(2)} ${coupon.currency.toUpperCase()} off`;
  }
}

/** "3 of 10 used", or "3 used" without a limit. */
export const redemptionsLabel = (coupon: Pick<Coupon, "redeemed" | "max_redemptions">) =>
  coupon.max_redemptions === null
    ? `${coupon.redeemed} used`
    : `${coupon.redeemed} of ${coupon.max_redemptions} used`;

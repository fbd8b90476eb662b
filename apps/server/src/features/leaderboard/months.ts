/** Calendar months, UTC, as `YYYY-MM` (the key of character_monthly_messages and the leaderboard). */

export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The first instant of a month. */
export function monthStart(month: string): Date {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 1));
}

/** The month `by` months after (negative: before) `month`. */
export function addMonths(month: string, by: number): string {
  const start = monthStart(month);
  return monthOf(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + by, 1)));
}

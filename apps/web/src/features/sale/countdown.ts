/** What the sale's countdown shows (accounts-billing-admin §2.2, §9: it ticks every second). */
export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** The end has come: every part is 0. */
  over: boolean;
}

export const SALE_TICK_MS = 1000;

/**
 * Whole days, hours, minutes and seconds from `now` to `endsAt` (both in ms), rounded down to
 * the second, so the display never shows a second that has not been lived yet; all 0 once over.
 */
export function countdownParts(endsAt: number, now: number): CountdownParts {
  const left = Math.max(0, Math.floor((endsAt - now) / 1000));
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
    over: left === 0,
  };
}

/** 7 → "07": hours, minutes and seconds always show two digits; days as many as they need. */
export const twoDigits = (value: number) => String(value).padStart(2, "0");

/** How long to wait so the next tick lands on the next whole second of the countdown. */
export function msToNextTick(endsAt: number, now: number): number {
  const rest = (endsAt - now) % SALE_TICK_MS;
  return rest > 0 ? rest : SALE_TICK_MS;
}

/**
 * How long generations take in this process, as a moving average, for the waiting room's
 * "Estimated Time Left". A guess until the first generations finish.
 */
let averageMs = 10_000;
const WEIGHT = 0.2;

export function recordGenerationTime(ms: number): void {
  averageMs = averageMs * (1 - WEIGHT) + ms * WEIGHT;
}

/** Seconds until a job behind `position` others starts, with `slots` generating at once. */
export function estimatedWaitSeconds(position: number, slots: number): number {
  return Math.round((position * averageMs) / Math.max(1, slots) / 1000);
}

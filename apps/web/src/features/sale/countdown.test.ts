import { describe, expect, it } from "vitest";
import { countdownParts, msToNextTick, twoDigits } from "./countdown.ts";

describe("sale countdown", () => {
  const end = Date.UTC(2031, 5, 4);

  it("splits the time left into days, hours, minutes and seconds", () => {
    const now = end - ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000;
    expect(countdownParts(end, now)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5, over: false });
    expect(countdownParts(end, end - 59_000)).toEqual({
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 59,
      over: false,
    });
  });

  it("rounds down to the second and stops at zero", () => {
    expect(countdownParts(end, end - 1_999).seconds).toBe(1);
    expect(countdownParts(end, end - 999)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, over: true });
    expect(countdownParts(end, end + 60_000)).toMatchObject({ days: 0, seconds: 0, over: true });
  });

  it("counts down one second per tick", () => {
    const start = end - 3_601_000;
    const shown = [0, 1000, 2000].map((t) => countdownParts(end, start + t));
    expect(shown.map((p) => [p.hours, p.minutes, p.seconds])).toEqual([
      [1, 0, 1],
      [1, 0, 0],
      [0, 59, 59],
    ]);
  });

  it("pads hours, minutes and seconds, and lands ticks on whole seconds", () => {
    expect(twoDigits(7)).toBe("07");
    expect(twoDigits(42)).toBe("42");
    expect(msToNextTick(end, end - 5_250)).toBe(250);
    expect(msToNextTick(end, end - 5_000)).toBe(1000);
  });
});

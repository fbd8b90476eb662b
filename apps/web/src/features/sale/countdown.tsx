import { useEffect, useState } from "react";
import { type CountdownParts, countdownParts, msToNextTick, twoDigits } from "./countdown.ts";

/** The time left to `endsAt`, re-rendered on each whole second (§9: the countdown ticks every second). */
export function useCountdown(endsAt: number): CountdownParts {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const at = Date.now();
      setNow(at);
      if (at < endsAt) timer = setTimeout(tick, msToNextTick(endsAt, at));
    };
    timer = setTimeout(tick, msToNextTick(endsAt, Date.now()));
    return () => clearTimeout(timer);
  }, [endsAt]);
  return countdownParts(endsAt, now);
}

const UNITS = [
  ["days", "Days"],
  ["hours", "Hours"],
  ["minutes", "Minutes"],
  ["seconds", "Seconds"],
] as const;

/** Days, hours, minutes and seconds in four tiles; a timer, so screen readers do not announce each tick. */
export function SaleCountdown({ endsAt }: { endsAt: number }) {
  const parts = useCountdown(endsAt);
  if (parts.over) return <p className="text-lg font-semibold">The sale has ended.</p>;
  return (
    <div role="timer" aria-label="Time left in the sale" className="grid grid-cols-4 gap-2 sm:gap-3">
      {UNITS.map(([key, label]) => (
        <div
          key={key}
          data-unit={key}
          className="flex min-w-0 flex-col items-center rounded-xl border border-border bg-surface px-1 py-2.5 shadow-card sm:px-4 sm:py-3"
        >
          <span className="text-2xl font-bold tabular-nums sm:text-4xl">
            {key === "days" ? parts.days : twoDigits(parts[key])}
          </span>
          <span className="text-[0.7rem] font-medium tracking-wider text-muted uppercase sm:text-xs">
            {label}
          </span>
        </div>
      ))}
    </div>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { secondsLeft, THANK_YOU_SECONDS } from "./api.ts";

/** Counts down from 10 s, then goes to `to` (§2.2: the thank-you pages move on by themselves). */
export function useRedirectCountdown(to: string): number {
  const navigate = useNavigate();
  const [startedAt] = useState(() => Date.now());
  const [left, setLeft] = useState(THANK_YOU_SECONDS);
  useEffect(() => {
    const timer = setInterval(() => {
      const next = secondsLeft(startedAt, Date.now(), THANK_YOU_SECONDS);
      setLeft(next);
      if (next === 0) {
        clearInterval(timer);
        void navigate({ to, replace: true });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [startedAt, navigate, to]);
  return left;
}

/** "Taking you home in 7 s": polite, so it is read when it first appears and not every second. */
export function RedirectNote({ left, where }: { left: number; where: string }) {
  return (
    <p className="text-sm text-muted">
      Taking you to {where} in <span className="tabular-nums">{left}</span> s.
    </p>
  );
}

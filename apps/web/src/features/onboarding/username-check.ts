import { accountEndpoints, USERNAME_INVALID_UNDER_4, username as usernameRule } from "@hearth/contract";
import { useEffect, useState } from "react";
import { call } from "../../lib/client.ts";

/** The username's §5 message before any availability check, or null when it may be checked. */
export function usernameProblem(value: string): string | null {
  const parsed = usernameRule.safeParse(value);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "Username contain invalid characters";
  return parsed.data.length < 4 ? USERNAME_INVALID_UNDER_4 : null;
}

export type Availability = "idle" | "checking" | "available" | "unavailable" | "failed";

/** Debounce before asking the server (accounts-billing-admin §4, §9). */
export const USERNAME_CHECK_DEBOUNCE_MS = 500;

/** Asks GET /api/users/check-username 500 ms after the last keystroke, for a well-formed name only. */
export function useUsernameAvailability(value: string): Availability {
  const [state, setState] = useState<Availability>("idle");
  useEffect(() => {
    if (usernameProblem(value)) {
      setState("idle");
      return;
    }
    setState("checking");
    const controller = new AbortController();
    const timer = setTimeout(() => {
      call(accountEndpoints.checkUsername, { query: { username: value }, signal: controller.signal })
        .then((r) => setState(r.isAvailable ? "available" : "unavailable"))
        .catch(() => {
          if (!controller.signal.aborted) setState("failed");
        });
    }, USERNAME_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value]);
  return state;
}

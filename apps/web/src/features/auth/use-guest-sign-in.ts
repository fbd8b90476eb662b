import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useMe } from "../../lib/session.ts";
import { guestCanReach } from "../../routes/guard.ts";
import { authApi } from "./auth-api.ts";
import { useSessionActions } from "./use-session-actions.ts";

/**
 * Starts a guest (anonymous) session, then continues to `redirectTo`, or home when that page
 * needs an account (it would only send the new guest back to sign in). Someone who is already a
 * guest just continues: the server refuses a second guest sign-in.
 */
export function useGuestSignIn(redirectTo: string) {
  const me = useMe();
  const navigate = useNavigate();
  const { signedIn } = useSessionActions();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = guestCanReach(redirectTo) ? redirectTo : "/";

  const start = async () => {
    setPending(true);
    setError(null);
    try {
      if (me?.is_guest) await navigate({ to: target, replace: true });
      else {
        await authApi.continueAsGuest();
        await signedIn(target);
      }
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      // The page usually changes; when it doesn't (same address), the button must not spin on.
      setPending(false);
    }
  };

  return { start, pending, error };
}

import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { authApi } from "./auth-api.ts";
import { useSessionActions } from "./use-session-actions.ts";

/** Starts a guest (anonymous) session, then continues to `redirectTo`. */
export function useGuestSignIn(redirectTo: string) {
  const { signedIn } = useSessionActions();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    setPending(true);
    setError(null);
    try {
      await authApi.continueAsGuest();
      await signedIn(redirectTo);
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  };

  return { start, pending, error };
}

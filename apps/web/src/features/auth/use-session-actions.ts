import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useCallback } from "react";
import { forgetGuest } from "../../lib/guest-id.ts";
import { meQuery } from "../../lib/session.ts";
import { authApi } from "./auth-api.ts";

/**
 * After the session changes, every cached answer may belong to someone else: drop them all
 * (except public config) and load the new session. The root route re-runs the guards when the
 * session changes, and the navigation that follows runs them for the next page.
 */
export function useSessionActions() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const refreshSession = useCallback(async () => {
    // "me" is replaced in place rather than removed, so the shell doesn't suspend meanwhile.
    queryClient.removeQueries({
      predicate: (query) => !["config", "app-settings", "me"].includes(String(query.queryKey[0])),
    });
    await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
  }, [queryClient]);

  const signedIn = useCallback(
    async (redirectTo: string) => {
      await refreshSession();
      await navigate({ to: redirectTo, replace: true });
    },
    [refreshSession, navigate],
  );

  const signOut = useCallback(async () => {
    // A guest who signs out leaves for good: the stored guest id is not brought back.
    forgetGuest();
    try {
      await authApi.signOut();
    } finally {
      // Even if the call failed the user asked to leave: show them signed out and re-check.
      await refreshSession();
      await navigate({ to: "/" });
    }
  }, [refreshSession, navigate]);

  return { signedIn, signOut, refreshSession };
}

import { billingEndpoints, type Subscription, type SubscriptionActionRequest } from "@hearth/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { call } from "../../lib/client.ts";
import { meQuery } from "../../lib/session.ts";
import { SESSION_REFRESH_MS } from "./rules.ts";

/** The member's subscription for the portal (§7: an array whose first item is it; none without one). */
export const subscriptionQuery = queryOptions({
  queryKey: ["subscription"],
  queryFn: async ({ signal }): Promise<Subscription | null> =>
    (await call(billingEndpoints.sticky, { signal }))[0] ?? null,
});

/**
 * Reads the session again (role, standing and permissions come from the subscription). After a
 * plan change it waits 5 s (§4), the time a provider's change takes to reach the account.
 */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return useCallback(
    (delayMs = 0) => {
      const refresh = () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      if (delayMs > 0) setTimeout(refresh, delayMs);
      else refresh();
    },
    [queryClient],
  );
}

/**
 * PUT /api/subscriptions/sticky. Whatever the answer, the subscription is read again (a refused
 * action may still mean it changed elsewhere); the session follows, 5 s later after a plan change.
 */
export function useSubscriptionAction() {
  const queryClient = useQueryClient();
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: (body: SubscriptionActionRequest) => call(billingEndpoints.act, { body }),
    onSuccess: (_result, body) => refreshSession(body.action === "change_plan" ? SESSION_REFRESH_MS : 0),
    onSettled: () => queryClient.invalidateQueries({ queryKey: subscriptionQuery.queryKey }),
  });
}

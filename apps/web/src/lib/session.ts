import { type AppConfig, accountEndpoints, type Me } from "@hearth/contract";
import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { isApiRequestError } from "./api.ts";
import { call } from "./client.ts";
import { rememberGuest, resumeGuest } from "./guest-id.ts";

/** Public configuration: fetched once per page load, it only changes when the server restarts. */
export const appConfigQuery = queryOptions({
  queryKey: ["config"],
  queryFn: ({ signal }) => call(accountEndpoints.config, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The signed-in user, or null when signed out (a 401 is an answer here, not a failure). */
export const meQuery = queryOptions({
  queryKey: ["me"],
  queryFn: async ({ signal }): Promise<Me | null> => {
    try {
      const me = await call(accountEndpoints.me, { signal });
      rememberGuest(me);
      return me;
    } catch (error) {
      // Signed out: a guest whose cookie was cleared comes back from local storage (guest-id.ts).
      if (isApiRequestError(error) && error.status === 401) return resumeGuest();
      throw error;
    }
  },
  staleTime: 60_000,
});

/**
 * Both hooks suspend only on first use: the root route loads them before any screen renders,
 * so screens can read them synchronously.
 */
export function useAppConfig(): AppConfig {
  return useSuspenseQuery(appConfigQuery).data;
}

export function useMe(): Me | null {
  return useSuspenseQuery(meQuery).data;
}

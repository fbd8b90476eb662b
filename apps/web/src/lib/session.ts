import { type AppConfig, accountEndpoints, type Me } from "@hearth/contract";
import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { isApiRequestError } from "./api.ts";
import { call } from "./client.ts";

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
      return await call(accountEndpoints.me, { signal });
    } catch (error) {
      if (isApiRequestError(error) && error.status === 401) return null;
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

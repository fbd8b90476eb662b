import { billingEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** The paid plans (GET /api/plans): they change only when the server restarts with a new plans.json. */
export const plansQuery = queryOptions({
  queryKey: ["plans"],
  queryFn: ({ signal }) => call(billingEndpoints.plans, { signal }),
  staleTime: 5 * 60_000,
});

import { type CheckoutCalculateRequest, checkoutEndpoints, type EndpointInput } from "@hearth/contract";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** Payment methods, the card provider's key and script: they change only when the server restarts. */
export const checkoutOptionsQuery = queryOptions({
  queryKey: ["checkout", "options"],
  queryFn: ({ signal }) => call(checkoutEndpoints.options, { signal }),
  staleTime: 5 * 60_000,
});

/** The member's saved details and card (a summary replaces the form before anything is typed). */
export const onFileQuery = queryOptions({
  queryKey: ["checkout", "on_file"],
  queryFn: ({ signal }) => call(checkoutEndpoints.onFile, { signal }),
});

export const countriesQuery = queryOptions({
  queryKey: ["checkout", "countries"],
  queryFn: ({ signal }) => call(checkoutEndpoints.countries, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const statesQuery = (country: string) =>
  queryOptions({
    queryKey: ["checkout", "states", country],
    queryFn: ({ signal }) => call(checkoutEndpoints.states, { params: { country }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const orderQuery = (orderId: string) =>
  queryOptions({
    queryKey: ["checkout", "order", orderId],
    queryFn: ({ signal }) => call(checkoutEndpoints.order, { params: { orderId }, signal }),
  });

/**
 * The price for what the member has entered (POST /api/checkout/calculate). A pure calculation,
 * so it is a query keyed by its request: the last answer stays on screen while the next loads.
 */
export function useCalculation(request: CheckoutCalculateRequest | null) {
  return useQuery({
    queryKey: ["checkout", "calculate", request],
    queryFn: ({ signal }) =>
      call(checkoutEndpoints.calculate, { body: request as CheckoutCalculateRequest, signal }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/**
 * POST /api/checkout/exit as the page goes away. `keepalive` lets it outlive the page; sendBeacon
 * can't be used: it can't send JSON without a CORS-unsafe type our origin check would want, and
 * it sets no accept header. The browser adds the Origin header the server checks.
 */
export function sendCheckoutExit(body: EndpointInput<typeof checkoutEndpoints.exit>["body"]): void {
  try {
    void fetch(checkoutEndpoints.exit.path, {
      method: "POST",
      credentials: "include",
      keepalive: true,
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  } catch {
    // Only a funnel statistic: nothing to tell the member.
  }
}

import { pledgeEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** Where to send the browser to authorize (404: the service is not set up on this site). */
export const authorizeQuery = (service: string) =>
  queryOptions({
    queryKey: ["pledges", "authorize", service],
    queryFn: ({ signal }) => call(pledgeEndpoints.authorize, { params: { pledge_service: service }, signal }),
    // A fresh state each visit: it expires, and it is the member's alone.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/**
 * The authorization return. A code works once, so the query is keyed by it and never retried or
 * refetched: a second render (or React's development double effects) asks nothing twice.
 */
export const completeQuery = (service: string, code: string, state: string) =>
  queryOptions({
    queryKey: ["pledges", "complete", service, code],
    queryFn: ({ signal }) =>
      call(pledgeEndpoints.oauth, { params: { pledge_service: service }, query: { code, state }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
  });

export const resultQuery = (service: string, transientId: string) =>
  queryOptions({
    queryKey: ["pledges", "result", service, transientId],
    queryFn: ({ signal }) =>
      call(pledgeEndpoints.result, { params: { pledge_service: service, transientId }, signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** §9: the thank-you pages move on after 10 s. */
export const THANK_YOU_SECONDS = 10;

/** Whole seconds left of a `total`-second wait begun at `startedAt` (ms), never below 0. */
export function secondsLeft(startedAt: number, now: number, total: number): number {
  return Math.max(0, total - Math.floor((now - startedAt) / 1000));
}

/** `patreon` → "Patreon" until the server has said its name. */
export const serviceLabel = (service: string) => service.charAt(0).toUpperCase() + service.slice(1);

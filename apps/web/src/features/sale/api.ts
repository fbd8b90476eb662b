import { characterEndpoints, saleEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** The running sale (404 when none): its heading, dates, countdown end and offers. */
export const saleQuery = queryOptions({
  queryKey: ["sale"],
  queryFn: ({ signal }) => call(saleEndpoints.get, { signal }),
  retry: false,
  staleTime: 60_000,
});

/** §2.2's "most popular characters": each category's most messaged listed bot, with its real count. */
export const POPULAR_CATEGORIES = [
  { label: "Overall", tags: undefined },
  { label: "Anime", tags: "anime" },
  { label: "Game", tags: "game" },
] as const;

export const popularQuery = (tags: string | undefined) =>
  queryOptions({
    queryKey: ["sale", "popular", tags ?? "all"],
    queryFn: ({ signal }) =>
      call(characterEndpoints.browse, { query: { sort: "popular", limit: 1, tags }, signal }),
    staleTime: 5 * 60_000,
  });

/** Local storage key of the sale page's dismissal (accounts-billing-admin §3 Local storage). */
export const SALE_DISMISSED_KEY = "hearth.sale-dismissed";

export function saleDismissed(): boolean {
  try {
    return localStorage.getItem(SALE_DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

export function dismissSale(): void {
  try {
    localStorage.setItem(SALE_DISMISSED_KEY, "1");
  } catch {
    // Private mode: the page closes now and may show again on a later visit.
  }
}

import { type PageSlug, type SiteConfig, siteEndpoints } from "@hearth/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** The site's public configuration: it changes only when the server restarts. */
export const siteQuery = queryOptions({
  queryKey: ["site"],
  queryFn: ({ signal }) => call(siteEndpoints.config, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The site configuration, or undefined while it loads (the shell renders without its extras meanwhile). */
export function useSite(): SiteConfig | undefined {
  return useQuery(siteQuery).data;
}

export const pageQuery = (slug: PageSlug) =>
  queryOptions({
    queryKey: ["page", slug],
    queryFn: ({ signal }) => call(siteEndpoints.page, { params: { slug }, signal }),
    staleTime: 5 * 60_000,
  });

export const easterCodeQuery = queryOptions({
  queryKey: ["easter-code"],
  queryFn: ({ signal }) => call(siteEndpoints.easterCode, { signal }),
  retry: false,
});

/** Local storage key of the birthday banner's dismissal (accounts-billing-admin §3 Local storage). */
export const BIRTHDAY_BANNER_KEY = "hearth.birthday-banner-dismissed";

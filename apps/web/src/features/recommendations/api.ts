import { type RecommendationList, recommendationEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/**
 * Recommended Bots (chat-and-characters §7), with the local-storage cache of §3: one entry per
 * user and settings (NSFW, selected tags), reused for a short while so moving between pages
 * doesn't recompute 602 bots; the page's Refresh button asks the server again.
 */

export const RECOMMENDATION_CACHE_TTL_MS = 10 * 60_000;
const PREFIX = "hearth.recommendations.v1";

export interface RecommendationParams {
  /** The viewer's id, or "signed-out". */
  userId: string;
  nsfw: boolean;
  tags: string[];
}

export const cacheKey = (p: RecommendationParams) =>
  `${PREFIX}:${p.userId}:${p.nsfw ? "nsfw" : "sfw"}:${[...p.tags].sort().join(",")}`;

interface CacheEntry {
  at: number;
  list: RecommendationList;
}

/** The cached answer, when it is younger than the TTL and still readable. */
export function readCache(p: RecommendationParams, now = Date.now()): CacheEntry | null {
  try {
    const raw = localStorage.getItem(cacheKey(p));
    if (!raw) return null;
    const entry = JSON.parse(raw) as CacheEntry;
    if (typeof entry?.at !== "number" || !Array.isArray(entry.list?.characters)) return null;
    return now - entry.at < RECOMMENDATION_CACHE_TTL_MS ? entry : null;
  } catch {
    return null;
  }
}

function writeCache(p: RecommendationParams, list: RecommendationList) {
  try {
    // Other users' and older settings' entries go: one entry per browser stays small.
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key?.startsWith(`${PREFIX}:`) && key !== cacheKey(p)) localStorage.removeItem(key);
    }
    localStorage.setItem(cacheKey(p), JSON.stringify({ at: Date.now(), list } satisfies CacheEntry));
  } catch {
    // Storage full or disabled: the list still shows, uncached.
  }
}

export const recommendationKeys = {
  all: ["recommendations"] as const,
  list: (p: RecommendationParams) => ["recommendations", p.userId, p.nsfw, [...p.tags].sort()] as const,
};

export function recommendationsQuery(p: RecommendationParams) {
  const cached = readCache(p);
  return queryOptions({
    queryKey: recommendationKeys.list(p),
    queryFn: async ({ signal }) => {
      const list = await call(recommendationEndpoints.list, {
        query: { nsfw: String(p.nsfw), ...(p.tags.length ? { tags: p.tags.join(",") } : {}) },
        signal,
      });
      writeCache(p, list);
      return list;
    },
    // The cached answer counts as fetched when it was stored: fresh until the TTL passes.
    ...(cached ? { initialData: cached.list, initialDataUpdatedAt: cached.at } : {}),
    staleTime: RECOMMENDATION_CACHE_TTL_MS,
  });
}

/** Forgets every cached list (after a block or unblock, which changes what may be recommended). */
export function clearRecommendationCache() {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key?.startsWith(`${PREFIX}:`)) localStorage.removeItem(key);
    }
  } catch {
    // Storage disabled: nothing was cached.
  }
}

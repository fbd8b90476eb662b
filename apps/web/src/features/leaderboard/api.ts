import { type LeaderboardType, leaderboardEndpoints } from "@hearth/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** The creators leaderboard (accounts-billing-admin §2.2, §7), served by features/leaderboard. */
export const leaderboardQuery = (type: LeaderboardType, date: string | undefined, page: number) =>
  queryOptions({
    queryKey: ["leaderboard", type, date ?? "newest", page] as const,
    queryFn: ({ signal }) => call(leaderboardEndpoints.get, { query: { type, date, page }, signal }),
    // The server caches for 2 minutes too; a tab switch shows the last table meanwhile.
    staleTime: 120_000,
    placeholderData: keepPreviousData,
  });

/** "2031-02" → "February 2031" (the month is UTC, as the server counts it). */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

export const scoreLabel = (score: number) => score.toLocaleString("en-US", { maximumFractionDigits: 1 });

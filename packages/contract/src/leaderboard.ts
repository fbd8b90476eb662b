import { z } from "zod";
import { queryInt32 } from "./integers.ts";

// Shapes of the creators leaderboard (accounts-billing-admin §2.2, §3 "Leaderboard hit", §4, §9).

export const leaderboardType = z.enum(["new_bots", "all_bots"]);
export type LeaderboardType = z.infer<typeof leaderboardType>;
export const leaderboardTypeTitle: Record<LeaderboardType, string> = {
  new_bots: "New Bots",
  all_bots: "All Bots",
};

/** Hits per page, creators ranked per category, and how long an answer may be cached (§9). */
export const LEADERBOARD_PAGE_SIZE = 48;
export const LEADERBOARD_WINNERS = 25;
export const LEADERBOARD_CACHE_SECONDS = 120;

/**
 * A month's score per bot (the job sums a creator's bots): messages sent to it that month, plus
 * 10 × the interaction scores of ratings given or changed that month (love 1, like 0.5,
 * dislike -1), plus 5 × its new favourites that month; a creator's total never goes below 0.
 */
export const LEADERBOARD_WEIGHTS = { message: 1, rating: 10, favorite: 5 } as const;

/** GET /api/leaderboard?type=new_bots&date=YYYY-MM&page=1 */
export const leaderboardQuery = z.object({
  type: leaderboardType.default("new_bots"),
  /** A month `YYYY-MM`; one that is not available (or absent) means the newest (§4). */
  date: z.string().max(20).optional(),
  page: queryInt32(1, 1000).default(1),
});

export const leaderboardHit = z.object({
  id: z.string(),
  date: z.string(),
  type: leaderboardType,
  rank: z.number().int().min(1),
  creator_user_id: z.string(),
  creator_username: z.string().nullable(),
  number_of_characters: z.number().int().min(0),
  score: z.number(),
  /** Places gained since the previous month (negative: lost); null when not ranked then. */
  movement: z.number().int().nullable(),
  avatar_url: z.string().nullable(),
});
export type LeaderboardHit = z.infer<typeof leaderboardHit>;

export const leaderboardPage = z.object({
  type: leaderboardType,
  /** The month shown (null when nothing has been computed yet). */
  date: z.string().nullable(),
  /** Months with a leaderboard, newest first. */
  dates: z.array(z.string()),
  hits: z.array(leaderboardHit),
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
  computed_at: z.string().nullable(),
});
export type LeaderboardPage = z.infer<typeof leaderboardPage>;

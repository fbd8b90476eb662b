import { endpoint } from "../endpoint.ts";
import { leaderboardPage, leaderboardQuery } from "../leaderboard.ts";

/** The creators leaderboard (apps/server/src/features/leaderboard): open to everyone. */
export const leaderboardEndpoints = {
  get: endpoint({
    method: "GET",
    path: "/api/leaderboard",
    summary:
      "A month's creators leaderboard (New Bots or All Bots, top 25, 48 a page) as the scheduled job " +
      "computed it, with the months available; cached 120 s",
    tag: "Leaderboard",
    access: "anyone",
    query: leaderboardQuery,
    response: leaderboardPage,
  }),
};

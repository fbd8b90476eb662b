import { endpoint } from "../endpoint.ts";
import { recommendationList, recommendationQuery } from "../recommendations.ts";

/**
 * Recommended Bots (apps/server/src/features/recommendations): up to 602 listed bots ranked for
 * the viewer (tag taste from their chats, ratings and favourites, with a popularity and recency
 * prior); a popular-and-new mix for guests, signed-out visitors and new members.
 */
export const recommendationEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/recommendations",
    summary: "Up to 602 bots recommended for the viewer, best first (NSFW and blocked creators respected)",
    tag: "Recommendations",
    access: "anyone",
    query: recommendationQuery,
    response: recommendationList,
  }),
};

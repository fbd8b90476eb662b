import { endpoint, idParams } from "../endpoint.ts";
import {
  appEvent,
  characterRatingSummary,
  tagSuggestionDecided,
  tagSuggestionDecision,
  tagSuggestionList,
} from "../ratings.ts";

/**
 * Ratings and tag suggestions (apps/server/src/features/ratings). Client events arrive through
 * one endpoint, `POST /api/event`, told apart by `event_name` (chat-and-characters §7).
 */
export const ratingEndpoints = {
  event: endpoint({
    method: "POST",
    path: "/api/event",
    summary:
      "A client event: `characterRating` (members rate a public bot 1/3/5, not their own; again replaces; " +
      "the bot's rating_score becomes the share of its ratings that are like or love) or " +
      "`characterSuggestTags` (suggest tag changes; both lists empty discards the pending suggestion), " +
      "`adView` / `adClick` (an ad shown or opened in a chat, counted per ad and day) or `chatUi` (a chat-screen " +
      "action for product analytics, dropped where analytics are off); ad and chat-UI events are limited per " +
      "account (HEARTH_EVENTS_PER_MINUTE, 429 past it)",
    tag: "Ratings",
    access: "member",
    body: appEvent,
    response: null,
  }),
  characterRating: endpoint({
    method: "GET",
    path: "/api/characters/{id}/rating",
    summary: "A bot's rating figures (like share, count) and the viewer's own rating",
    tag: "Ratings",
    access: "anyone",
    params: idParams,
    response: characterRatingSummary,
  }),
  tagSuggestions: endpoint({
    method: "GET",
    path: "/api/characters/{id}/tag-suggestions",
    summary: "Members' pending tag suggestions for a bot (its creator or an admin)",
    tag: "Ratings",
    access: "creator",
    params: idParams,
    response: tagSuggestionList,
  }),
  decideTagSuggestion: endpoint({
    method: "PUT",
    path: "/api/tag-suggestions/{id}",
    summary: "Accept (apply its tag change, 12 tags at most) or dismiss a pending tag suggestion",
    tag: "Ratings",
    access: "creator",
    params: idParams,
    body: tagSuggestionDecision,
    response: tagSuggestionDecided,
  }),
};

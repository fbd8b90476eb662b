import {
  type AppEvent,
  type CharacterRatingValue,
  chatEndpoints,
  type MessageRatingCreate,
  ratingEndpoints,
} from "@hearth/contract";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";
import { characterKeys } from "../characters/api.ts";

/** Ratings and tag suggestions (chat-and-characters §4, §7), served by features/ratings. */

export const ratingKeys = {
  summary: (characterId: string) => ["ratings", "character", characterId] as const,
  suggestions: (characterId: string) => ["ratings", "suggestions", characterId] as const,
};

/** A bot's like share and the viewer's own rating. */
export const ratingSummaryQuery = (characterId: string) =>
  queryOptions({
    queryKey: ratingKeys.summary(characterId),
    queryFn: ({ signal }) => call(ratingEndpoints.characterRating, { params: { id: characterId }, signal }),
  });

export const tagSuggestionsQuery = (characterId: string) =>
  queryOptions({
    queryKey: ratingKeys.suggestions(characterId),
    queryFn: ({ signal }) => call(ratingEndpoints.tagSuggestions, { params: { id: characterId }, signal }),
  });

export const sendEvent = (event: AppEvent) => call(ratingEndpoints.event, { body: event });

export const rateMessage = (messageId: string, body: MessageRatingCreate) =>
  call(chatEndpoints.rateMessage, { params: { id: messageId }, body });

/** Rates a bot, then refreshes its figures wherever they show (the header, the profile's like percent). */
export async function rateCharacter(
  queryClient: QueryClient,
  characterId: string,
  rating: CharacterRatingValue,
  conversationLength: number,
): Promise<void> {
  await sendEvent({
    event_name: "characterRating",
    character_id: characterId,
    rating,
    conversation_length: conversationLength,
  });
  void queryClient.invalidateQueries({ queryKey: ratingKeys.summary(characterId) });
  void queryClient.invalidateQueries({ queryKey: characterKeys.detail(characterId) });
}

export const decideTagSuggestion = (id: string, status: "accepted" | "dismissed") =>
  call(ratingEndpoints.decideTagSuggestion, { params: { id }, body: { status } });

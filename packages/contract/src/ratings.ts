import { z } from "zod";
import { adClickEvent, adViewEvent, chatUiEvent } from "./ads.ts";
import { MAX_TAGS } from "./characters.ts";
import { uuidParam } from "./endpoint.ts";
import { int32, nonNegativeInt32 } from "./integers.ts";
import { characterLimits as limits } from "./labels.ts";

// Shapes of the ratings feature (issue 11): message ratings, the chatbot rating, tag suggestions
// and the `POST /api/event` union they travel in (chat-and-characters §3, §4, §5, §7, §9).

// --- Message rating ---------------------------------------------------------------------------

/** The four levels of a message rating, 1 to 4 (chat-and-characters §4, §9). */
export const MESSAGE_RATING_LEVELS = [
  { value: 1, label: "Terrible" },
  { value: 2, label: "Bad" },
  { value: 3, label: "Great" },
  { value: 4, label: "Fantastic" },
] as const;
/** Levels at or below this are negative: the user is asked what response they expected. */
export const NEGATIVE_MESSAGE_RATING_MAX = 2;
/** How long the thank-you shows after a message rating (ms). */
export const MESSAGE_RATING_THANKS_MS = 7000;

/** Reason chips, one set for text replies and one for image replies, each by sentiment. */
export const MESSAGE_RATING_REASONS = {
  text: {
    positive: ["In character", "Creative", "Engaging", "Well written", "Funny"],
    negative: ["Out of character", "Repetitive", "Ignored my message", "Too short", "Too long", "Boring"],
  },
  image: {
    positive: ["Beautiful", "Matches the scene", "Looks like the character", "Great detail"],
    negative: ["Doesn't match the prompt", "Wrong character", "Bad anatomy", "Low quality"],
  },
} as const;
export type MessageRatingKind = keyof typeof MESSAGE_RATING_REASONS;

/** The reason chips offered for a level of a text or image message. */
export function ratingReasonsFor(kind: MessageRatingKind, level: number): readonly string[] {
  const set = MESSAGE_RATING_REASONS[kind];
  return level <= NEGATIVE_MESSAGE_RATING_MAX ? set.negative : set.positive;
}

export const EXPECTED_RESPONSE_MAX = 1000;

/** PUT /api/messages/{id}/rating: set once; a second rating is refused (409). */
export const messageRatingCreate = z.object({
  rating: int32(1, 4),
  /** One of the level's reason chips for the message's kind. */
  reason: z.string().trim().min(1).max(60).optional(),
  /** For a negative level: what the user expected instead. */
  expected: z.string().trim().max(EXPECTED_RESPONSE_MAX).optional(),
});
export type MessageRatingCreate = z.infer<typeof messageRatingCreate>;

// --- Chatbot rating ---------------------------------------------------------------------------

/** dislike / like / love as the client sends them (chat-and-characters §3, §9). */
export const CHARACTER_RATINGS = [
  { value: 1, name: "dislike", label: "Dislike", score: -1 },
  { value: 3, name: "like", label: "Like", score: 0.5 },
  { value: 5, name: "love", label: "Love", score: 1 },
] as const;
export const characterRatingValue = z.union([z.literal(1), z.literal(3), z.literal(5)]);
export type CharacterRatingValue = z.infer<typeof characterRatingValue>;

/**
 * GET /api/characters/{id}/rating: the bot's figures and the viewer's own rating. `rating_score`
 * is the share of its ratings that are like or love (0..1; null before the first); the profile's
 * like percent is that share in percent.
 */
export const characterRatingSummary = z.object({
  character_id: z.string(),
  rating_score: z.number().min(0).max(1).nullable(),
  ratings: z.number().int().min(0),
  /** The viewer's rating, null when they have none (or are signed out). */
  rating: characterRatingValue.nullable(),
  /** Signed-in member (not a guest) and a public bot: the header shows its rate button. */
  can_rate: z.boolean(),
});
export type CharacterRatingSummary = z.infer<typeof characterRatingSummary>;

// --- Tag suggestions --------------------------------------------------------------------------

/** How long a tag suggestion's result message shows (chat-and-characters §9), ms. */
export const TAG_SUGGESTION_MESSAGE_MS = 3000;
export const tagSuggestionMessages = {
  tooMany: `You can keep only ${MAX_TAGS} tags !`,
  empty: "Please select something !",
  sent: "Suggestions sent successfully !",
  failed: "Suggestions didn't sent !",
  discarded: "Suggestions Discarded !",
  discardFailed: "Not able to discard the suggestions.",
} as const;

const suggestedTag = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(limits.tag)
  .regex(/^[\p{L}\p{N} _&'+-]+$/u, "Tags use letters, digits, spaces and - _ & ' +");

/** The tags after a suggestion: removals first, then additions not already there, in order. */
export function applyTagChange(tags: readonly string[], add: readonly string[], remove: readonly string[]) {
  const removed = new Set(remove);
  const kept = tags.filter((t) => !removed.has(t));
  for (const t of add) if (!kept.includes(t)) kept.push(t);
  return kept;
}

export const tagSuggestion = z.object({
  id: z.string(),
  character_id: z.string(),
  username: z.string().nullable(),
  tags_to_add: z.array(z.string()),
  tags_to_remove: z.array(z.string()),
  status: z.enum(["pending", "accepted", "dismissed"]),
  created_at: z.string(),
  /** The bot's tags were this accepted now. */
  result_tags: z.array(z.string()),
  /** False when accepting would leave more than 12 tags. */
  fits: z.boolean(),
});
export type TagSuggestion = z.infer<typeof tagSuggestion>;

/** GET /api/characters/{id}/tag-suggestions: the pending ones, oldest first. */
export const tagSuggestionList = z.object({ tags: z.array(z.string()), suggestions: z.array(tagSuggestion) });
export type TagSuggestionList = z.infer<typeof tagSuggestionList>;

/** PUT /api/tag-suggestions/{id} */
export const tagSuggestionDecision = z.object({ status: z.enum(["accepted", "dismissed"]) });
export const tagSuggestionDecided = z.object({ suggestion: tagSuggestion, tags: z.array(z.string()) });

// --- POST /api/event --------------------------------------------------------------------------

export const characterRatingEvent = z.object({
  event_name: z.literal("characterRating"),
  character_id: uuidParam,
  rating: characterRatingValue,
  /** Messages in the chat the rating was given from. */
  conversation_length: nonNegativeInt32(10_000_000).default(0),
});
export const characterSuggestTagsEvent = z.object({
  event_name: z.literal("characterSuggestTags"),
  character_id: uuidParam,
  tags_to_add: z.array(suggestedTag).max(MAX_TAGS),
  tags_to_remove: z.array(suggestedTag).max(MAX_TAGS),
});

/**
 * Every client event, told apart by `event_name`: the community's (ratings, tag suggestions) and
 * the ads feature's (ad view and click, chat-UI events; ads.ts). A new kind is one more member
 * here and one more handler in the server's dispatch table.
 */
export const appEvent = z.discriminatedUnion("event_name", [
  characterRatingEvent,
  characterSuggestTagsEvent,
  adViewEvent,
  adClickEvent,
  chatUiEvent,
]);
export type AppEvent = z.infer<typeof appEvent>;
export type AppEventName = AppEvent["event_name"];

import { z } from "zod";
import { characterCard } from "./characters.ts";

// Shapes of the recommendations feature (issue 11; chat-and-characters §7, §9: 602 items).

/** How many bots one recommendation answer holds (chat-and-characters §9). */
export const RECOMMENDATION_COUNT = 602;

/** GET /api/recommendations: `nsfw` as browse's toggle, `tags` a comma list every bot must carry. */
export const recommendationQuery = z.object({
  nsfw: z.stringbool().default(false),
  tags: z
    .string()
    .max(400)
    .optional()
    .transform((s) =>
      s
        ? [
            ...new Set(
              s
                .split(",")
                .map((t) => t.trim().toLowerCase())
                .filter(Boolean),
            ),
          ].slice(0, 12)
        : [],
    ),
});
export type RecommendationQuery = z.input<typeof recommendationQuery>;

export const recommendationList = z.object({
  characters: z.array(characterCard),
  /** True when the ranking used the viewer's own chats, ratings and favourites; false: the popular-and-new mix. */
  personalized: z.boolean(),
  generated_at: z.string(),
});
export type RecommendationList = z.infer<typeof recommendationList>;

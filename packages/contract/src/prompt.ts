import { z } from "zod";

/** Parts of a prompt that are cut, first to last, when a chat does not fit the model's window. */
export const promptSection = z.enum([
  "examples",
  "history",
  "description",
  "scenario",
  "system_prompt",
  "user_persona",
  "post_history",
  /** Lorebook entries placed before or after the character's card, or inside the history. */
  "lore_before",
  "lore_after",
  "lore_depth",
  /** The conversation's memories. */
  "memories",
]);
export type PromptSection = z.infer<typeof promptSection>;

/** One section that was cut to fit: how many of its tokens the model saw, of how many. */
export const promptTrim = z.object({
  section: promptSection,
  kept_tokens: z.number().int(),
  full_tokens: z.number().int(),
});
export type PromptTrim = z.infer<typeof promptTrim>;

/**
 * What a character's definition costs on this server's default model, for its creator (the
 * editor and the import report): its tokens against the window a free member's chat gets, and
 * what a first message would cut.
 */
export const promptCost = z.object({
  model_name: z.string(),
  is_demo: z.boolean(),
  /** Tokens the default model really reads per conversation. */
  model_window: z.number().int(),
  /** What a free member's chat gets there: the free tier's context, capped by the model's window. */
  window: z.number().int(),
  /** Tokens the definition takes on every turn (system prompt, description, scenario, examples, greeting). */
  definition_tokens: z.number().int(),
  /** Whether the count is the model's own tokenizer (else an estimate). */
  exact: z.boolean(),
  /** What the first message of a chat would cut to fit. */
  trims: z.array(promptTrim),
});
export type PromptCost = z.infer<typeof promptCost>;

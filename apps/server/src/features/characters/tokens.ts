import { withTimeout } from "../../lib/with-timeout.ts";
import type { InferenceService } from "../inference/index.ts";

/** Counts the tokens of a text with the default model's tokenizer. */
export type TokenCounter = (text: string) => Promise<number>;

/** Roughly four characters a token for English text with common tokenizers. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * The text the model sees of a character on every turn (chat-and-characters §2, token count).
 * Alternate greetings are left out: one greeting at most opens a chat.
 */
export function promptText(f: {
  persona: string;
  personality?: string;
  scenario: string;
  dialogue: string;
  greeting: string;
  systemPrompt: string;
}): string {
  return [f.systemPrompt, f.persona, f.personality ?? "", f.scenario, f.dialogue, f.greeting]
    .filter(Boolean)
    .join("\n");
}

/** How long a save waits for the model to count before settling for an estimate. */
const COUNT_BUDGET_MS = 5000;

/**
 * Exact counts from the default model when it is loaded (or loads quickly); an estimate when it
 * cannot be loaded, so saving a character never fails because the model is missing or slow.
 */
export function modelTokenCounter(inference: Pick<InferenceService, "readyDefault">): TokenCounter {
  return async (text) => {
    if (!text) return 0;
    const backend = await inference.readyDefault();
    if (!backend) return estimateTokens(text);
    return withTimeout(backend.countTokens(text), COUNT_BUDGET_MS).catch(() => estimateTokens(text));
  };
}

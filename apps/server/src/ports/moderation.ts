import type { GeneratedImage } from "./images.ts";

/**
 * Content checks around image generation (issue 16 item 4), before (the prompt) and after (the
 * picture). The default is rule-based (`features/content-checks`: underage terms and contexts in
 * prompts); `adapters/openai-moderation.ts` asks any OpenAI-compatible `/moderations`
 * (omni-moderation: text and image input) and classifies the results too.
 */
export type ModerationVerdict =
  | { flagged: false }
  /** `underage`: the prompt (or picture) refers to minors; `guidelines`: any other refused content. */
  | { flagged: true; reason: "underage" | "guidelines"; categories: string[] };

export interface ContentModerator {
  readonly kind: string;
  checkPrompt(prompt: string, signal?: AbortSignal): Promise<ModerationVerdict>;
  /** Whether a generated picture may be stored and shown; `prompt` is what it was made from. */
  checkImage(image: GeneratedImage, prompt: string, signal?: AbortSignal): Promise<ModerationVerdict>;
}

export const PASSED: ModerationVerdict = { flagged: false };

// Content checks around image generation (issue 16 item 4, decision 020): the rule-based
// underage check every prompt goes through, and the moderator the configuration names.
import { OpenAiModeration } from "../../adapters/openai-moderation.ts";
import type { ImagesConfig } from "../../config-images.ts";
import type { ContentModerator } from "../../ports/moderation.ts";
import { LayeredModerator, RuleModerator } from "./moderators.ts";

export { LayeredModerator, RuleModerator } from "./moderators.ts";
export { underageReason } from "./underage-rules.ts";

/** The rules, and after them an OpenAI-compatible `/moderations` when MODERATION_BASE_URL is set. */
export function openModerator(moderation: ImagesConfig["moderation"]): ContentModerator {
  const rules = new RuleModerator();
  if (!moderation) return rules;
  return new LayeredModerator(
    rules,
    new OpenAiModeration({
      baseUrl: moderation.baseUrl,
      apiKey: moderation.apiKey,
      model: moderation.model,
      blocked: moderation.blocked,
    }),
  );
}

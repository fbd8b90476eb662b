import type { GeneratedImage } from "../../ports/images.ts";
import { type ContentModerator, type ModerationVerdict, PASSED } from "../../ports/moderation.ts";
import { underageReason } from "./underage-rules.ts";

/**
 * The default moderator: the underage rules on every prompt. It cannot see pictures; it reads
 * the prompt a picture was made from again (the bot's appearance included), so with no
 * classifier configured a result is refused only for its prompt.
 */
export class RuleModerator implements ContentModerator {
  readonly kind = "rules";

  async checkPrompt(prompt: string): Promise<ModerationVerdict> {
    const reason = underageReason(prompt);
    return reason ? { flagged: true, reason: "underage", categories: [`rule: ${reason}`] } : PASSED;
  }

  async checkImage(_image: GeneratedImage, prompt: string): Promise<ModerationVerdict> {
    return this.checkPrompt(prompt);
  }
}

/** The rules first (no call leaves the server for a prompt they refuse), then a classifier. */
export class LayeredModerator implements ContentModerator {
  readonly kind: string;

  constructor(
    private readonly rules: ContentModerator,
    private readonly classifier: ContentModerator,
  ) {
    this.kind = `${rules.kind}+${classifier.kind}`;
  }

  async checkPrompt(prompt: string, signal?: AbortSignal): Promise<ModerationVerdict> {
    const ruled = await this.rules.checkPrompt(prompt, signal);
    return ruled.flagged ? ruled : this.classifier.checkPrompt(prompt, signal);
  }

  async checkImage(image: GeneratedImage, prompt: string, signal?: AbortSignal): Promise<ModerationVerdict> {
    const ruled = await this.rules.checkImage(image, prompt, signal);
    return ruled.flagged ? ruled : this.classifier.checkImage(image, prompt, signal);
  }
}

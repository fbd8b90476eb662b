import type { GeneratedImage } from "../ports/images.ts";
import { type ContentModerator, type ModerationVerdict, PASSED } from "../ports/moderation.ts";

/**
 * Content checks by an OpenAI-compatible `POST {base}/moderations` (omni-moderation): the input
 * is an array of `{ type: "text", text }` and `{ type: "image_url", image_url: { url } }` parts
 * (the picture as a data URL), the answer `{ results: [{ flagged, categories, category_scores
 * }] }`. A category in `blocked` refuses; `sexual/minors` is always read as underage.
 */
export interface OpenAiModerationOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Categories that refuse a prompt or a picture (default: `sexual/minors`). */
  blocked: readonly string[];
  timeoutMs?: number;
}

const UNDERAGE = "sexual/minors";

export class OpenAiModeration implements ContentModerator {
  readonly kind = "openai";

  constructor(private readonly opts: OpenAiModerationOptions) {}

  checkPrompt(prompt: string, signal?: AbortSignal): Promise<ModerationVerdict> {
    return this.ask([{ type: "text", text: prompt }], signal);
  }

  checkImage(image: GeneratedImage, prompt: string, signal?: AbortSignal): Promise<ModerationVerdict> {
    const url = `data:${image.contentType};base64,${image.image.toString("base64")}`;
    return this.ask(
      [
        { type: "text", text: prompt },
        { type: "image_url", image_url: { url } },
      ],
      signal,
    );
  }

  private async ask(input: unknown[], signal?: AbortSignal): Promise<ModerationVerdict> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
    const res = await fetch(`${this.opts.baseUrl.replace(/\/+$/, "")}/moderations`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.opts.model, input }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    // A check that cannot be made refuses: nothing unchecked is shown.
    if (!res.ok) throw new Error(`The moderation service answered ${res.status}`);
    const body = (await res.json()) as { results?: { categories?: Record<string, boolean> }[] };
    if (!Array.isArray(body.results) || body.results.length === 0)
      throw new Error("The moderation service answered no result");
    const hit = new Set<string>();
    for (const result of body.results)
      for (const [category, on] of Object.entries(result.categories ?? {}))
        if (on && this.opts.blocked.includes(category)) hit.add(category);
    if (hit.size === 0) return PASSED;
    const categories = [...hit].sort();
    return { flagged: true, reason: hit.has(UNDERAGE) ? "underage" : "guidelines", categories };
  }
}

import {
  asImage,
  type GeneratedImage,
  type ImageBackend,
  ImageRefusedError,
  type ImageRequest,
} from "../ports/images.ts";

/**
 * Images from an OpenAI-compatible `POST {base}/images/generations` (`{ model, prompt, n, size
 * }`), answering `{ data: [{ b64_json } | { url }] }` (LocalAI, hosted services, OpenAI's own).
 * The protocol has no negative prompt, seed or LoRA: the bot's look comes from the prompt's
 * appearance text. A `content_policy_violation` is the service refusing the content.
 */
export interface OpenAiImagesOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Sent as `response_format` when set (`b64_json` for DALL·E; gpt-image models always answer it). */
  responseFormat?: "b64_json" | "url";
  timeoutMs?: number;
}

export class OpenAiImageBackend implements ImageBackend {
  readonly kind = "openai";

  constructor(private readonly opts: OpenAiImagesOptions) {}

  async generate(req: ImageRequest, signal?: AbortSignal): Promise<GeneratedImage> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 300_000);
    const cancel = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const res = await fetch(`${this.opts.baseUrl.replace(/\/+$/, "")}/images/generations`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.opts.model,
        prompt: req.prompt,
        n: 1,
        size: `${req.width}x${req.height}`,
        ...(this.opts.responseFormat ? { response_format: this.opts.responseFormat } : {}),
      }),
      signal: cancel,
    });
    if (!res.ok) {
      const text = (await res.text().catch(() => "")).slice(0, 300);
      if (res.status === 400 && /content_policy_violation|moderation_blocked/.test(text))
        throw new ImageRefusedError("The image service refused the content");
      throw new Error(`The image service answered ${res.status}${text ? `: ${text}` : ""}`);
    }
    const body = (await res.json()) as { data?: { b64_json?: string; url?: string }[] };
    const first = body.data?.[0];
    if (first?.b64_json) return asImage(Buffer.from(first.b64_json, "base64"), "The image service");
    if (first?.url) {
      const image = await fetch(first.url, { signal: cancel });
      if (!image.ok) throw new Error(`The image service's picture could not be read (${image.status})`);
      return asImage(Buffer.from(await image.arrayBuffer()), "The image service");
    }
    throw new Error("The image service answered no image");
  }

  async close(): Promise<void> {}
}

import { asImage, type GeneratedImage, type ImageBackend, type ImageRequest } from "../ports/images.ts";

/**
 * Images from Automatic1111's web UI or Forge (started with `--api`): `POST
 * /sdapi/v1/txt2img` with prompt, negative prompt, seed, size and steps answers
 * `{ images: [base64 PNG], parameters, info }`. A bot's LoRA goes into the prompt as
 * `<lora:name:weight>`, as the web UI reads it; a checkpoint (IMAGES_MODEL) is chosen per
 * request through `override_settings`. `--api-auth user:password` is IMAGES_API_KEY.
 */
export interface A1111Options {
  baseUrl: string;
  /** `sd_model_checkpoint` for each request; empty: the server's loaded one. */
  model: string;
  /** `user:password` of `--api-auth`, sent as HTTP Basic. */
  apiKey?: string;
  steps?: number;
  cfgScale?: number;
  samplerName?: string;
  timeoutMs?: number;
}

export class A1111ImageBackend implements ImageBackend {
  readonly kind = "a1111";

  constructor(private readonly opts: A1111Options) {}

  async generate(req: ImageRequest, signal?: AbortSignal): Promise<GeneratedImage> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 300_000);
    const lora = req.lora ? ` <lora:${req.lora.name}:${req.lora.weight}>` : "";
    const res = await fetch(`${this.opts.baseUrl.replace(/\/+$/, "")}/sdapi/v1/txt2img`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.opts.apiKey
          ? { authorization: `Basic ${Buffer.from(this.opts.apiKey).toString("base64")}` }
          : {}),
      },
      body: JSON.stringify({
        prompt: `${req.prompt}${lora}`,
        negative_prompt: req.negativePrompt,
        seed: req.seed,
        width: req.width,
        height: req.height,
        steps: this.opts.steps ?? 25,
        cfg_scale: this.opts.cfgScale ?? 7,
        ...(this.opts.samplerName ? { sampler_name: this.opts.samplerName } : {}),
        batch_size: 1,
        n_iter: 1,
        send_images: true,
        save_images: false,
        ...(this.opts.model ? { override_settings: { sd_model_checkpoint: this.opts.model } } : {}),
      }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!res.ok) {
      const text = (await res.text().catch(() => "")).slice(0, 300);
      throw new Error(`The image server (txt2img) answered ${res.status}${text ? `: ${text}` : ""}`);
    }
    const body = (await res.json()) as { images?: unknown };
    const first = Array.isArray(body.images) ? body.images[0] : undefined;
    if (typeof first !== "string" || !first) throw new Error("The image server (txt2img) answered no image");
    // Some builds prefix a data URL.
    return asImage(Buffer.from(first.replace(/^data:[^,]*,/, ""), "base64"), "The image server (txt2img)");
  }

  async close(): Promise<void> {}
}

/**
 * Image generation (issue 16 item 3). No image model runs inside Hearth: the adapters speak to
 * a ComfyUI server (`adapters/comfyui-images.ts`, a workflow template over HTTP + WebSocket),
 * Automatic1111 / Forge (`adapters/a1111-images.ts`, `/sdapi/v1/txt2img`) or any
 * OpenAI-compatible `/images/generations` (`adapters/openai-images.ts`). The chat worker builds
 * the prompt, checks it and the result through the moderation port, and stores the picture.
 */
export interface ImageRequest {
  prompt: string;
  negativePrompt: string;
  seed: number;
  width: number;
  height: number;
  /** A LoRA trained for this bot, as the backend names it (a file name), and its weight. */
  lora: { name: string; weight: number } | null;
}

export interface GeneratedImage {
  image: Buffer;
  /** `image/png`, `image/jpeg` or `image/webp`. */
  contentType: string;
}

export interface ImageBackend {
  /** Names the backend in logs and configuration (`comfyui`, `a1111`, `openai`). */
  readonly kind: string;
  generate(request: ImageRequest, signal?: AbortSignal): Promise<GeneratedImage>;
  close(): Promise<void>;
}

/** The backend itself refused the prompt or its result (OpenAI's `content_policy_violation`). */
export class ImageRefusedError extends Error {}

/** The content type of PNG, JPEG or WebP bytes, or null for anything else. */
export function imageTypeOf(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (
    bytes.length >= 12 &&
    bytes.toString("ascii", 0, 4) === "RIFF" &&
    bytes.toString("ascii", 8, 12) === "WEBP"
  )
    return "image/webp";
  return null;
}

/** An answer's bytes as an image, or an error saying the backend sent something else. */
export function asImage(bytes: Buffer, who: string): GeneratedImage {
  const contentType = imageTypeOf(bytes);
  if (!contentType) throw new Error(`${who} answered something that is not a PNG, JPEG or WebP image`);
  return { image: bytes, contentType };
}

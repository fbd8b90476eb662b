import { A1111ImageBackend } from "../../../adapters/a1111-images.ts";
import { ComfyUiImageBackend } from "../../../adapters/comfyui-images.ts";
import { OpenAiImageBackend } from "../../../adapters/openai-images.ts";
import type { ImagesConfig } from "../../../config-images.ts";
import type { ImageBackend } from "../../../ports/images.ts";
import type { FileStorage } from "../../../ports/storage.ts";
import { openModerator } from "../../content-checks/index.ts";
import type { ImageServices } from "./images.ts";

/** The image backend IMAGES_BACKEND names, or null (`none`). */
export function openImageBackend(config: ImagesConfig): ImageBackend | null {
  const b = config.backend;
  if (b.kind === "comfyui")
    return new ComfyUiImageBackend({
      baseUrl: b.baseUrl,
      apiKey: b.apiKey,
      model: b.model,
      workflow: b.workflow,
    });
  if (b.kind === "a1111")
    return new A1111ImageBackend({ baseUrl: b.baseUrl, apiKey: b.apiKey, model: b.model });
  if (b.kind === "openai")
    return new OpenAiImageBackend({
      baseUrl: b.baseUrl,
      apiKey: b.apiKey,
      model: b.model,
      responseFormat: b.responseFormat,
    });
  return null;
}

/** Everything image generation in chats needs, from the configuration (app.ts). */
export function openImageServices(
  config: ImagesConfig,
  storage: FileStorage,
  training: Pick<ImageServices, "readyForImages" | "loraFor">,
): ImageServices {
  return {
    backend: openImageBackend(config),
    moderator: openModerator(config.moderation),
    storage,
    width: config.width,
    height: config.height,
    negativePrompt: config.negativePrompt,
    concurrency: config.concurrency,
    ...training,
  };
}

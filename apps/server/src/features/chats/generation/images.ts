import type { ImageBackend } from "../../../ports/images.ts";
import type { ContentModerator } from "../../../ports/moderation.ts";
import type { FileStorage } from "../../../ports/storage.ts";
import type { Capacity } from "./scheduling.ts";

/**
 * What image generation in chats needs (issue 16 items 3-4): the image port's backend (null:
 * this server has none), the content checks, storage for the pictures, and whether bots must be
 * trained first. app.ts builds it from the configuration (config-images.ts).
 */
export interface ImageServices {
  backend: ImageBackend | null;
  moderator: ContentModerator;
  storage: FileStorage;
  width: number;
  height: number;
  negativePrompt: string;
  /** Pictures the image server makes at once: its slots in the line for the model. */
  concurrency: number;
  /**
   * Whether a bot is ready for images: the one rule lives in features/image-training
   * (`readyForImages`: with no training service every bot is; with one, only a trained bot).
   */
  readyForImages: (loraStatus: string) => boolean;
  /** The LoRA trained for a bot (its name in the image server's lora folder, weight, trigger word). */
  loraFor?: (characterId: string) => Promise<{ name: string; weight: number; triggerWord?: string } | null>;
}

/** Pictures wait in the same line as replies, for the image server's own slots. */
export function imageCapacity(images: ImageServices): Capacity {
  return { key: `images:${images.backend?.kind ?? "none"}`, limit: images.concurrency, perProcess: false };
}

export function isImageGeneration(capacityKey: string): boolean {
  return capacityKey.startsWith("images:");
}

/** The README section an administrator is pointed to when no image model is configured. */
export const IMAGES_README_SECTION = "README → Images in chats";

import { randomBytes } from "node:crypto";
import { readImageSize, renderSquareWebp } from "../adapters/sharp-images.ts";
import { HttpError } from "../http/errors.ts";
import type { FileStorage } from "../ports/storage.ts";
import { sniffImageType } from "./image-type.ts";

// Avatars of characters, personas and accounts: one check, one rendering, one file layout.

/** Largest avatar upload accepted, in bytes. */
export const AVATAR_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Largest image decoded, in pixels (5000 x 5000; a 24-megapixel camera photo fits). An avatar is
 * shown at 512 px at most, and a decode holds every pixel (4 bytes each) while it runs. The
 * header is checked before decoding, so a "PNG bomb" (tiny file, huge canvas) is refused without
 * allocating its pixels.
 */
export const AVATAR_MAX_PIXELS = 25_000_000;
export const AVATAR_SIZES = { large: 512, small: 128 } as const;
const ACCEPTED = new Set(["png", "jpeg", "webp", "gif"]);

export const avatarFileKey = (prefix: string, size: keyof typeof AVATAR_SIZES) =>
  `${prefix}-${AVATAR_SIZES[size]}.webp`;

/** The public address of an avatar's large rendering, or null without one. */
export const avatarUrl = (storage: FileStorage, key: string | null): string | null =>
  key ? storage.url(avatarFileKey(key, "large")) : null;

export interface ProcessedAvatar {
  large: Buffer;
  small: Buffer;
}

/** Checks an uploaded image and converts it into square WebP avatars (512 and 128 px). */
export async function processAvatar(data: Buffer, maxBytes = AVATAR_MAX_BYTES): Promise<ProcessedAvatar> {
  if (data.length > maxBytes) {
    throw new HttpError(413, "payloadTooLarge", `The image is larger than ${maxBytes / 1024 / 1024} MB.`);
  }
  const type = sniffImageType(data);
  if (!type || !ACCEPTED.has(type)) {
    throw new HttpError(
      415,
      "unsupportedMediaType",
      "This file is not a supported image. Upload a PNG, JPEG, WebP or GIF.",
    );
  }
  const size = await readImageSize(data);
  if (!size) throw damaged();
  if (size.width * size.height > AVATAR_MAX_PIXELS) {
    throw new HttpError(
      413,
      "payloadTooLarge",
      `The image is ${size.width} x ${size.height} pixels; the largest accepted is ${AVATAR_MAX_PIXELS / 1_000_000} megapixels (for example 5000 x 5000).`,
    );
  }
  try {
    const [large, small] = await renderSquareWebp(
      data,
      [AVATAR_SIZES.large, AVATAR_SIZES.small],
      AVATAR_MAX_PIXELS,
    );
    if (!large || !small) throw damaged();
    return { large, small };
  } catch {
    throw damaged();
  }
}

/**
 * Checks, renders and stores an avatar under a fresh key below `folder` (the files are immutable
 * and cached for a year, so a new upload never reuses a key). Answers the key.
 */
export async function storeAvatar(
  storage: FileStorage,
  folder: string,
  image: Buffer,
  maxBytes?: number,
): Promise<string> {
  const { large, small } = await processAvatar(image, maxBytes);
  const key = `${folder}/${randomBytes(8).toString("hex")}`;
  await storage.put(avatarFileKey(key, "large"), large, "image/webp");
  await storage.put(avatarFileKey(key, "small"), small, "image/webp");
  return key;
}

/** Removes an avatar's files, never failing: a leftover file costs a little disk, nothing more. */
export async function deleteAvatarFiles(storage: FileStorage, key: string | null): Promise<void> {
  if (!key) return;
  await Promise.allSettled(
    (["large", "small"] as const).map((size) => storage.delete(avatarFileKey(key, size))),
  );
}

const damaged = () =>
  new HttpError(400, "invalidRequest", "The image could not be read: the file is damaged or incomplete.");

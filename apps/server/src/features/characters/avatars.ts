import sharp, { type Metadata } from "sharp";
import { HttpError } from "../../http/errors.ts";
import { AVATAR_SIZES } from "./present.ts";

/** Largest avatar upload accepted, in bytes. */
export const AVATAR_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Largest image decoded, in pixels (about 6300 x 6300). The header is checked before decoding,
 * so a "PNG bomb" (tiny file, huge canvas) is refused without allocating its pixels.
 */
export const AVATAR_MAX_PIXELS = 40_000_000;

export type ImageType = "png" | "jpeg" | "webp" | "gif";

/** The image type from the file's first bytes; what the client claims is not trusted. */
export function sniffImageType(data: Buffer): ImageType | null {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (data[4] === 0x37 || data[4] === 0x39) && data[5] === 0x61)
    return "gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

export interface ProcessedAvatar {
  large: Buffer;
  small: Buffer;
}

/**
 * Checks and converts an uploaded image into square WebP avatars (512 and 128 px). Metadata
 * (EXIF, GPS, ICC, comments) is dropped by re-encoding; orientation is applied first.
 */
export async function processAvatar(data: Buffer, maxBytes = AVATAR_MAX_BYTES): Promise<ProcessedAvatar> {
  if (data.length > maxBytes) {
    throw new HttpError(413, "payloadTooLarge", `The image is larger than ${maxBytes / 1024 / 1024} MB.`);
  }
  const type = sniffImageType(data);
  if (!type) {
    throw new HttpError(
      415,
      "unsupportedMediaType",
      "This file is not a supported image. Upload a PNG, JPEG, WebP or GIF.",
    );
  }
  let meta: Metadata;
  try {
    // Reading the header allocates no pixels, so sharp's own pixel limit is lifted here: the
    // check below then names the dimensions instead of failing as "damaged".
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw damaged();
  }
  const width = meta.width ?? 0;
  // For animated images the first frame is used; pageHeight is one frame's height.
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) throw damaged();
  if (width * height > AVATAR_MAX_PIXELS) {
    throw new HttpError(
      413,
      "payloadTooLarge",
      `The image is ${width} x ${height} pixels; the largest accepted is ${AVATAR_MAX_PIXELS / 1_000_000} megapixels (for example 6000 x 6000).`,
    );
  }
  try {
    // limitInputPixels again, in case a frame disagrees with the header; failOn rejects truncated data.
    const decoded = sharp(data, {
      limitInputPixels: AVATAR_MAX_PIXELS,
      failOn: "truncated",
      pages: 1,
    }).rotate();
    const render = (size: number) =>
      decoded
        .clone()
        .resize(size, size, { fit: "cover", position: sharp.strategy.attention })
        .webp({ quality: 82 })
        .toBuffer();
    const [large, small] = await Promise.all([render(AVATAR_SIZES.large), render(AVATAR_SIZES.small)]);
    return { large, small };
  } catch {
    throw damaged();
  }
}

const damaged = () =>
  new HttpError(400, "invalidRequest", "The image could not be read: the file is damaged or incomplete.");

import { availableParallelism } from "node:os";
import sharp from "sharp";
import { Semaphore } from "../lib/semaphore.ts";

// The image library (sharp, libvips) is used only here; features ask for what they need.

/**
 * Decodes that may run at once, each on one libvips thread: half the cores, so the event loop
 * always has a core of its own. Each decode holds its image's pixels and one of libuv's four
 * pool threads, which file reads and writes need too; uploads past the cap wait in line.
 */
export const DECODES_AT_ONCE = Math.max(1, Math.floor(availableParallelism() / 2));
sharp.concurrency(1);

export const decodes = new Semaphore(DECODES_AT_ONCE);

/** Width and height from the header alone (no pixels decoded); null when it cannot be read. */
export async function readImageSize(data: Buffer): Promise<{ width: number; height: number } | null> {
  try {
    // sharp's pixel limit is lifted for the header: the caller names the dimensions it refuses.
    const meta = await sharp(data, { limitInputPixels: false }).metadata();
    // For animated images one frame counts; pageHeight is one frame's height.
    const height = meta.pageHeight ?? meta.height ?? 0;
    return meta.width && height ? { width: meta.width, height } : null;
  } catch {
    return null;
  }
}

/**
 * Square WebP renderings of the first frame, one per size, orientation applied and metadata
 * (EXIF, GPS, ICC, comments) dropped by re-encoding. Throws when the data is damaged or
 * decodes to more than `maxPixels`.
 */
export function renderSquareWebp(data: Buffer, sizes: number[], maxPixels: number): Promise<Buffer[]> {
  return decodes.run(() => {
    const decoded = sharp(data, { limitInputPixels: maxPixels, failOn: "truncated", pages: 1 }).rotate();
    return Promise.all(
      sizes.map((size) =>
        decoded
          .clone()
          .resize(size, size, { fit: "cover", position: sharp.strategy.attention })
          .webp({ quality: 82 })
          .toBuffer(),
      ),
    );
  });
}

/** An SVG drawn to PNG. */
export function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A square of one colour as PNG. */
export function solidPng(size: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background } })
    .png()
    .toBuffer();
}

/** Any image sharp reads up to `maxPixels`, re-encoded as PNG. */
export function toPng(data: Buffer, maxPixels: number): Promise<Buffer> {
  return decodes.run(() => sharp(data, { limitInputPixels: maxPixels }).png().toBuffer());
}

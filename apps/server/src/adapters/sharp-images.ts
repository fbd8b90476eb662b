import sharp from "sharp";

// The image library (sharp, libvips) is used only here; features ask for what they need.

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
export async function renderSquareWebp(data: Buffer, sizes: number[], maxPixels: number): Promise<Buffer[]> {
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

/** Any image sharp reads, re-encoded as PNG. */
export function toPng(data: Buffer): Promise<Buffer> {
  return sharp(data).png().toBuffer();
}

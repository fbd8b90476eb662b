import sharp from "sharp";
import type { CardImage } from "./types.ts";

/** Image helpers for cards: recognising an asset's format and producing the PNG to embed. */

const PLACEHOLDER_SIZE = 512;

/** The image type from the file's first bytes (declared types and extensions can lie). */
export function sniffImageType(data: Buffer): string | null {
  const ascii = (from: number, to: number) => data.toString("latin1", from, to);
  if (data.length < 12) return null;
  if (data[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(4, 8) === "ftyp" && ["avif", "avis"].includes(ascii(8, 12))) return "image/avif";
  return null;
}

/** A stable, pleasant colour for a name (FNV-1a hash to a hue). */
export function colourForName(name: string): { r: number; g: number; b: number } {
  let hash = 0x811c9dc5;
  for (const ch of name) {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const hue = hash % 360;
  // HSL with saturation 0.45 and lightness 0.55, converted to RGB.
  const s = 0.45;
  const l = 0.55;
  const k = (n: number) => (n + hue / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return { r: channel(0), g: channel(8), b: channel(4) };
}

export function placeholderPng(name: string): Promise<Buffer> {
  return sharp({
    create: {
      width: PLACEHOLDER_SIZE,
      height: PLACEHOLDER_SIZE,
      channels: 3,
      background: colourForName(name),
    },
  })
    .png()
    .toBuffer();
}

/**
 * The avatar as a PNG (Hearth stores WebP). A stored avatar that cannot be decoded falls back
 * to the placeholder: the person still gets their card, which matters more than the picture.
 */
export async function avatarAsPng(avatar: CardImage | null, name: string): Promise<Buffer> {
  if (!avatar) return placeholderPng(name);
  try {
    return await sharp(avatar.data).png().toBuffer();
  } catch {
    return placeholderPng(name);
  }
}

import { solidPng, toPng } from "../../../adapters/sharp-images.ts";
import type { CardImage } from "./types.ts";

/** Image helpers for cards: the PNG to embed, and a placeholder when there is no avatar. */

const PLACEHOLDER_SIZE = 512;

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
  return solidPng(PLACEHOLDER_SIZE, colourForName(name));
}

/**
 * The avatar as a PNG (Hearth stores WebP). A stored avatar that cannot be decoded falls back
 * to the placeholder: the person still gets their card, which matters more than the picture.
 */
export async function avatarAsPng(avatar: CardImage | null, name: string): Promise<Buffer> {
  if (!avatar) return placeholderPng(name);
  try {
    return await toPng(avatar.data);
  } catch {
    return placeholderPng(name);
  }
}

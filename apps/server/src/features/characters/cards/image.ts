import { toPng } from "../../../adapters/sharp-images.ts";
import { AVATAR_MAX_PIXELS } from "../../../lib/avatars.ts";
import { isPng } from "./png.ts";
import { portraitPng } from "./portrait.ts";
import type { CardImage } from "./types.ts";

/** The picture of an exported card: the original art, else the avatar, else a generated portrait. */

/** A stable, pleasant colour for a name (FNV-1a hash to a hue), as #rrggbb. */
export function colourForName(name: string): string {
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
  return `#${[0, 8, 4].map((n) => channel(n).toString(16).padStart(2, "0")).join("")}`;
}

/** A 400 x 600 portrait with the name's initials and the name (portrait.ts). */
export function placeholderPng(name: string): Promise<Buffer> {
  return portraitPng(name, colourForName(name));
}

/**
 * The card's picture as a PNG. Original art that is a PNG is kept byte for byte (its size, its
 * aspect ratio, any chunks besides card text); other art is re-encoded at its own size. Without
 * art, the avatar (bots from before art was kept); without either, or when neither decodes, the
 * generated portrait: the person still gets their card, which matters more than the picture.
 */
export async function cardPicture(
  character: { art: CardImage | null; avatar: CardImage | null },
  name: string,
): Promise<Buffer> {
  for (const image of [character.art, character.avatar]) {
    if (!image) continue;
    if (isPng(image.data)) return image.data;
    try {
      return await toPng(image.data, AVATAR_MAX_PIXELS);
    } catch {
      // Try the next picture.
    }
  }
  return placeholderPng(name);
}

import { svgToPng } from "../../../adapters/sharp-images.ts";
import { FALLBACK, GLYPH_STROKES, initials, shade, strokes } from "../monogram.ts";

/**
 * A generated card portrait for a bot without a picture: the monogram's initials over a gradient,
 * at a card's aspect (400 x 600), with the name written underneath when it is plain Latin
 * letters. Drawn as strokes, not text, so it looks the same on a machine without fonts.
 */

export const PORTRAIT_WIDTH = 400;
export const PORTRAIT_HEIGHT = 600;

function glyphPaths(letters: string[], left: number, top: number, unit: number): string[] {
  const advance = 6 * unit;
  return letters.flatMap((letter, i) =>
    letter === " "
      ? []
      : strokes(GLYPH_STROKES[letter] ?? FALLBACK).map((stroke) => {
          const points = stroke.map(
            ([x, y]) => `${(left + i * advance + x * unit).toFixed(1)},${(top + y * unit).toFixed(1)}`,
          );
          return `<polyline points="${points.join(" ")}"/>`;
        }),
  );
}

/** Width of a line of glyphs: 4 units each, 2 between. */
const lineWidth = (count: number, unit: number) => count * 4 * unit + (count - 1) * 2 * unit;

/** The name as the glyphs can draw it ("Zoë Hart" → "ZOE HART"), or null when they cannot. */
function drawableName(name: string): string | null {
  const plain = name.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/\s+/g, " ").trim();
  return /^[A-Z ]{1,24}$/.test(plain) ? plain : null;
}

export function portraitPng(name: string, color: string): Promise<Buffer> {
  const w = PORTRAIT_WIDTH;
  const h = PORTRAIT_HEIGHT;
  const big = [...(initials(name) || "?")];
  const bigUnit = w / 16;
  const bigTop = h * 0.42 - 3 * bigUnit;
  const paths = glyphPaths(big, (w - lineWidth(big.length, bigUnit)) / 2, bigTop, bigUnit);
  const line = drawableName(name);
  let nameGroup = "";
  if (line) {
    const chars = [...line];
    const unit = Math.min(w / 60, (w * 0.84) / (chars.length * 6 - 2));
    const top = h * 0.78;
    const small = glyphPaths(chars, (w - lineWidth(chars.length, unit)) / 2, top, unit);
    nameGroup = `<g fill="none" stroke="#ffffff" stroke-width="${(unit * 0.7).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round">${small.join("")}</g>`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0.6" y2="1">
    <stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${shade(color, -0.5)}"/>
  </linearGradient></defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  <circle cx="${w / 2}" cy="${h * 0.42}" r="${w * 0.36}" fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="${bigUnit * 0.35}"/>
  <rect x="${w * 0.06}" y="${h * 0.04}" width="${w * 0.88}" height="${h * 0.92}" rx="${w * 0.04}" fill="none" stroke="#ffffff" stroke-opacity="0.25" stroke-width="2"/>
  <g fill="none" stroke="#ffffff" stroke-width="${bigUnit * 0.8}" stroke-linecap="round" stroke-linejoin="round">${paths.join("")}</g>
  ${nameGroup}
</svg>`;
  return svgToPng(svg);
}

import { svgToPng } from "../../adapters/sharp-images.ts";

/**
 * Monogram avatars (the seed's demo bots): initials drawn as strokes on a coloured gradient.
 * The letters are paths, not text, so the image is the same on a machine without any fonts.
 */

type Stroke = [number, number][];

/**
 * Upper-case letters on a 4 x 6 grid (y down): polylines separated by "|", points by spaces.
 * Kept as strings so the table stays readable after formatting.
 */
export const GLYPH_STROKES: Record<string, string> = {
  A: "0,6 2,0 4,6|0.7,4 3.3,4",
  B: "0,3 3,3 4,4 4,5 3,6 0,6 0,0 3,0 4,1 4,2 3,3",
  C: "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5",
  D: "0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0",
  E: "4,0 0,0 0,6 4,6|0,3 3,3",
  F: "4,0 0,0 0,6|0,3 3,3",
  G: "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3.5 2.5,3.5",
  H: "0,0 0,6|4,0 4,6|0,3 4,3",
  I: "1,0 3,0|2,0 2,6|1,6 3,6",
  J: "4,0 4,5 3,6 1,6 0,5",
  K: "0,0 0,6|4,0 0,3.5|1.3,2.6 4,6",
  L: "0,0 0,6 4,6",
  M: "0,6 0,0 2,3.5 4,0 4,6",
  N: "0,6 0,0 4,6 4,0",
  O: "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0",
  P: "0,6 0,0 3,0 4,1 4,2 3,3 0,3",
  Q: "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0|2.5,4.5 4,6",
  R: "0,6 0,0 3,0 4,1 4,2 3,3 0,3|2,3 4,6",
  S: "4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5",
  T: "0,0 4,0|2,0 2,6",
  U: "0,0 0,5 1,6 3,6 4,5 4,0",
  V: "0,0 2,6 4,0",
  W: "0,0 1,6 2,2.5 3,6 4,0",
  X: "0,0 4,6|4,0 0,6",
  Y: "0,0 2,3 4,0|2,3 2,6",
  Z: "0,0 4,0 0,6 4,6",
};
/** Anything without a glyph (digits, other scripts) is drawn as a diamond. */
export const FALLBACK = "2,0 4,3 2,6 0,3 2,0";

export function strokes(spec: string): Stroke[] {
  return spec
    .split("|")
    .map((line) => line.split(" ").map((p) => p.split(",").map(Number) as [number, number]));
}

/** Up to two initials: the first letters of the first two words ("Ser Aldric" → "SA"). */
export function initials(name: string): string {
  const words = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join("");
}

/** A square PNG with the name's initials in white over a gradient of the given colour. */
export function monogramPng(name: string, color: string, size = 512): Promise<Buffer> {
  const letters = [...(initials(name) || "?")];
  const unit = size / 16; // one grid unit: letters are 6 units (37.5%) tall
  const advance = 6 * unit;
  const width = letters.length * 4 * unit + (letters.length - 1) * 2 * unit;
  const left = (size - width) / 2;
  const top = (size - 6 * unit) / 2;
  const paths = letters.flatMap((letter, i) =>
    strokes(GLYPH_STROKES[letter] ?? FALLBACK).map((stroke) => {
      const points = stroke.map(
        ([x, y]) => `${(left + i * advance + x * unit).toFixed(1)},${(top + y * unit).toFixed(1)}`,
      );
      return `<polyline points="${points.join(" ")}"/>`;
    }),
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${shade(color, -0.45)}"/>
  </linearGradient></defs>
  <rect width="${size}" height="${size}" fill="url(#g)"/>
  <circle cx="${size / 2}" cy="${size / 2}" r="${size * 0.4}" fill="none" stroke="#ffffff" stroke-opacity="0.18" stroke-width="${unit * 0.35}"/>
  <g fill="none" stroke="#ffffff" stroke-width="${unit * 0.8}" stroke-linecap="round" stroke-linejoin="round">${paths.join("")}</g>
</svg>`;
  return svgToPng(svg);
}

/** Darkens (negative) or lightens a #rrggbb colour by a fraction. */
export function shade(hex: string, by: number): string {
  const channel = (i: number) => {
    const v = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
    const out = by < 0 ? v * (1 + by) : v + (255 - v) * by;
    return Math.round(out).toString(16).padStart(2, "0");
  };
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

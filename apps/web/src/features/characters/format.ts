import type { CharacterBadge } from "@hearth/contract/labels";
import type { BadgeTone } from "../../ui/badge.tsx";

const compact = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat();

/** 1234 → "1.2K" for cards; the exact figure goes in a title/label. */
export function compactCount(value: number): string {
  return compact.format(value);
}

export function exactCount(value: number): string {
  return whole.format(value);
}

/** rating_score (0..1) as the profile's like percent, or null when nobody has rated yet. */
export function likePercent(score: number | null): string | null {
  return score === null ? null : `${Math.round(score * 100)}%`;
}

export const badgeTone: Record<CharacterBadge, BadgeTone> = {
  REVIEW: "info",
  ACTION: "danger",
  PUBLIC: "success",
  PRIVATE: "neutral",
  UNLISTED: "warning",
};

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
/** "2 minutes ago", "yesterday" for draft timestamps. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return "";
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ["year", 31_536_000],
    ["month", 2_592_000],
    ["week", 604_800],
    ["day", 86_400],
    ["hour", 3_600],
    ["minute", 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

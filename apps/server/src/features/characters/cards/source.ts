import { createHash } from "node:crypto";
import type { CardVersion } from "./card-json.ts";
import { isRecord } from "./card-json.ts";

/**
 * An imported card as it was written: its version, its `data` object, the CharX archive it came
 * in and a hash of its art. An export writes back every value Hearth has not changed since
 * (fidelity.ts), so import then export gives the same card.
 */
export interface CardSource {
  version: CardVersion;
  /** The card's `data` (for V1, its six card fields only). */
  data: Record<string, unknown>;
  /** The CharX archive in storage, whose assets an export as CharX carries again. */
  archiveKey?: string;
  /** SHA-256 (hex) of the art stored at import: a different art means the picture was replaced. */
  artSha256?: string;
}

/**
 * Where a character's card source lives: the `card_source` column holds this small pointer, and
 * the card's data sits in storage as JSON text (its key order kept), so reading a character for
 * a chat or a profile never carries a large card along.
 */
export interface CardSourcePointer {
  version: CardVersion;
  dataKey: string;
  archiveKey?: string;
  artSha256?: string;
}

/** The hash recorded as `artSha256`. */
export function artHash(art: Buffer): string {
  return createHash("sha256").update(art).digest("hex");
}

export function writeCardPointer(pointer: CardSourcePointer): string {
  return JSON.stringify(pointer);
}

/** The stored pointer, or null when there is none or it cannot be read (the export then uses Hearth's fields). */
export function readCardPointer(text: string | null | undefined): CardSourcePointer | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed) || typeof parsed.dataKey !== "string") return null;
    const version = parsed.version === 1 || parsed.version === 2 || parsed.version === 3 ? parsed.version : 2;
    return {
      version,
      dataKey: parsed.dataKey,
      ...(typeof parsed.archiveKey === "string" ? { archiveKey: parsed.archiveKey } : {}),
      ...(typeof parsed.artSha256 === "string" ? { artSha256: parsed.artSha256 } : {}),
    };
  } catch {
    return null;
  }
}

/** The card's data as stored (JSON text), or null when it cannot be read. */
export function readCardData(bytes: Buffer | null | undefined): Record<string, unknown> | null {
  if (!bytes) return null;
  try {
    const parsed: unknown = JSON.parse(bytes.toString("utf8"));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Deep equality of JSON values, ignoring object key order (jsonb columns reorder keys). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
    );
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    const other = Object.keys(b).filter((k) => b[k] !== undefined);
    return keys.length === other.length && keys.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

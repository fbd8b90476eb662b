import type { Lorebook, LorebookSummary } from "@hearth/contract";
import type { LorebookRow } from "./schema.ts";

export function toLorebookSummary(row: LorebookRow): LorebookSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    entry_count: row.book.entries.length,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toLorebook(row: LorebookRow): Lorebook {
  return {
    ...toLorebookSummary(row),
    scan_depth: row.book.scan_depth,
    token_budget: row.book.token_budget,
    recursive_scanning: row.book.recursive_scanning,
    entries: row.book.entries,
  };
}

/** "Harbor lore" → "Harbor lore.json"; characters a file system or header might choke on become "_". */
export function exportFilename(name: string, format: "worldinfo" | "character_book"): string {
  const safe = [...name]
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || '/\\:*?"<>|'.includes(c) ? "_" : c))
    .join("")
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(0, 80);
  return `${safe || "lorebook"}${format === "character_book" ? ".character_book" : ""}.json`;
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

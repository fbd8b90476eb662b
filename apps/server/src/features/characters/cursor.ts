import { type SQL, sql } from "drizzle-orm";
import { HttpError } from "../../http/errors.ts";

/**
 * Keyset pagination. A list is ordered by a few non-null sort keys that end with a unique one
 * (the id), so rows with equal counts or dates still have one fixed order; the cursor holds the
 * last row's key values and the next page starts strictly after them. Pages stay stable while
 * rows are added, unlike offsets.
 */
export interface SortKey {
  expr: SQL;
  dir: "asc" | "desc";
  /** What the key's values look like, checked before a client's cursor reaches SQL. */
  type: "integer" | "float" | "timestamp" | "uuid" | "text";
}

export type CursorValue = string | number;

/** ORDER BY terms; `nulls last` on both directions matches the indexes drizzle-kit writes. */
export function orderTerms(keys: SortKey[]): SQL[] {
  return keys.map((k) => (k.dir === "asc" ? sql`${k.expr} asc nulls last` : sql`${k.expr} desc nulls last`));
}

/** The row's sort key values as one JSON array, read back into the next cursor. */
export function keyValues(keys: SortKey[]): SQL<CursorValue[]> {
  return sql<CursorValue[]>`json_build_array(${sql.join(
    keys.map((k) => k.expr),
    sql`, `,
  )})`;
}

/** Rows after the cursor: (k1 after v1) or (k1 = v1 and ((k2 after v2) or ...)). */
export function afterCursor(keys: SortKey[], values: CursorValue[]): SQL {
  let condition: SQL | null = null;
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as SortKey;
    const value = values[i] as CursorValue;
    const beyond = key.dir === "asc" ? sql`${key.expr} > ${value}` : sql`${key.expr} < ${value}`;
    condition = condition ? sql`(${beyond} or (${key.expr} = ${value} and ${condition}))` : beyond;
  }
  return condition ?? sql`true`;
}

export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** A cursor from a client; anything that is not one of ours is a 400, never a database error. */
export function decodeCursor(cursor: string | undefined, keys: SortKey[]): CursorValue[] | null {
  if (!cursor) return null;
  const invalid = () => new HttpError(400, "invalidRequest", "cursor: This page link is not valid.");
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(values) || values.length !== keys.length) throw invalid();
  if (!values.every((v, i) => fits(v, (keys[i] as SortKey).type))) throw invalid();
  return values as CursorValue[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;

function fits(value: unknown, type: SortKey["type"]): boolean {
  if (type === "integer") return Number.isSafeInteger(value);
  // Within float4 range, so the comparison with a real column cannot overflow.
  if (type === "float") return typeof value === "number" && Math.abs(value) < 1e30;
  if (typeof value !== "string") return false;
  if (type === "uuid") return UUID.test(value);
  if (type === "timestamp") return TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
  return value.length <= 200;
}

/** Splits the extra row fetched to learn whether another page exists. */
export function page<T extends { cursorKeys: CursorValue[] }>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return { rows: pageRows, nextCursor: rows.length > limit && last ? encodeCursor(last.cursorKeys) : null };
}

import { z } from "zod";

/**
 * Every integer the contract accepts is declared through these, so each carries the range the
 * place it ends up can hold: an int4 column (PostgreSQL `integer`) holds ±2^31, a bigint column is
 * read back as a JavaScript number and so is kept within Number.MAX_SAFE_INTEGER. A value past
 * the range is refused as bad input (400) instead of failing in SQL (500). The contract's range
 * test walks every endpoint and fails on an integer declared any other way.
 */

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/** The JSON Schema `format` that marks an integer allowed past int4 (a bigint column, or none). */
export const SAFE_INT_FORMAT = "int64";

function bounded(min: number, max: number, lowest: number, highest: number, what: string): void {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max || min < lowest || max > highest)
    throw new Error(`${what}(${min}, ${max}): the range must lie within ${lowest}..${highest}`);
}

/** An integer an int4 column holds, narrowed to `min..max` where the value has a smaller range. */
export function int32(min = INT32_MIN, max = INT32_MAX) {
  bounded(min, max, INT32_MIN, INT32_MAX, "int32");
  return z.number().int().min(min).max(max);
}

/** A count, index or size: 0 up to `max` (at most what an int4 column holds). */
export function nonNegativeInt32(max = INT32_MAX) {
  return int32(0, max);
}

/**
 * An integer past int4's range: a bigint column's, or one that never reaches the database.
 * Marked with the int64 format so the range test knows it was meant.
 */
export function safeInt(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  bounded(min, max, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, "safeInt");
  return z.number().int().min(min).max(max).meta({ format: SAFE_INT_FORMAT });
}

/** A query-string integer (`?limit=20`): read from its text, then held to `min..max` like int32. */
export function queryInt32(min: number, max: number) {
  bounded(min, max, INT32_MIN, INT32_MAX, "queryInt32");
  return z.coerce.number().int().min(min).max(max);
}

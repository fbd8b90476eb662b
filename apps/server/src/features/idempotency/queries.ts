import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type IdempotencyKeyRow, idempotencyKeys } from "./schema.ts";

export interface KeyId {
  userId: string;
  endpoint: string;
  key: string;
}

const keyIs = (id: KeyId) =>
  and(
    eq(idempotencyKeys.userId, id.userId),
    eq(idempotencyKeys.endpoint, id.endpoint),
    eq(idempotencyKeys.key, id.key),
  );

/** Deletes every key older than `keptSeconds` (all members', through the index on created_at). */
export async function deleteExpiredKeys(db: Db, keptSeconds: number): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${keptSeconds})`));
}

/** Takes the key for a request about to run; false when a row for it is already there. */
export async function claimKey(db: Db, id: KeyId, requestHash: string): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ ...id, requestHash })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** The key's row with its age in seconds, or null. */
export async function readKey(
  db: Db,
  id: KeyId,
): Promise<(IdempotencyKeyRow & { ageSeconds: number }) | null> {
  const [row] = await db
    .select({
      row: idempotencyKeys,
      ageSeconds: sql<number>`extract(epoch from (now() - ${idempotencyKeys.createdAt}))::float8`,
    })
    .from(idempotencyKeys)
    .where(keyIs(id));
  return row ? { ...row.row, ageSeconds: Number(row.ageSeconds) } : null;
}

/**
 * Takes over a key whose first request ran too long ago to be still running (its process went
 * away): true when this request now holds it.
 */
export async function retakeKey(
  db: Db,
  id: KeyId,
  requestHash: string,
  olderThanSeconds: number,
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ createdAt: sql`now()` })
    .where(
      and(
        keyIs(id),
        eq(idempotencyKeys.requestHash, requestHash),
        sql`${idempotencyKeys.status} is null`,
        lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function recordAnswer(db: Db, id: KeyId, status: number, answer: unknown): Promise<void> {
  await db.update(idempotencyKeys).set({ status, answer }).where(keyIs(id));
}

/** Gives the key back after a failed request, so that a retry runs it again. */
export async function releaseKey(db: Db, id: KeyId): Promise<void> {
  await db.delete(idempotencyKeys).where(and(keyIs(id), sql`${idempotencyKeys.status} is null`));
}

import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/**
 * The first administrator of a fresh install: the first account that signs up. Only accounts a
 * person can sign in to count (a sign-in method in `accounts`): guests and the system account
 * `@hearth` that owns the demo characters have none.
 */

/** Any fixed number: the advisory lock that makes concurrent first sign-ups take turns. */
export const FIRST_ADMIN_LOCK_KEY = 7_201_912;

const realAccount = (alias: string) =>
  sql.raw(`NOT ${alias}.is_anonymous AND EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = ${alias}.id)`);

/**
 * Makes `userId` the administrator when nobody is one yet and no real account is older than it.
 * Runs after the account is committed; the lock serialises the decision, so of two simultaneous
 * first sign-ups exactly one wins: whichever decides first either sees the other's admin flag,
 * or sees it as the older account and yields to it. Answers whether this account became admin.
 */
export async function claimFirstAdmin(db: Db, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`);
    const result = await tx.execute<{ id: string }>(sql`
      UPDATE users AS me SET is_admin = true, updated_at = now()
      WHERE me.id = ${userId}
        AND NOT me.is_anonymous
        AND NOT EXISTS (SELECT 1 FROM users o WHERE o.is_admin)
        AND NOT EXISTS (
          SELECT 1 FROM users o
          WHERE o.id <> me.id AND ${realAccount("o")}
            AND (o.created_at, o.id) < (me.created_at, me.id)
        )
      RETURNING me.id`);
    return result.rows.length > 0;
  });
}

/**
 * Whether the next sign-up would become the administrator (no real account yet). Once an account
 * exists the install is no longer fresh, so `false` is remembered and the query stops.
 */
export function firstAdminState(db: Db, enabled: boolean): () => Promise<boolean> {
  let closed = !enabled;
  return async () => {
    if (closed) return false;
    const result = await db.execute<{ open: boolean }>(
      sql`SELECT NOT EXISTS (SELECT 1 FROM users u WHERE ${realAccount("u")}) AS open`,
    );
    closed = !result.rows[0]?.open;
    return !closed;
  };
}

import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { authCounters } from "./schema.ts";

/**
 * Counters for sign-in throttling and the guest allowance, kept in the database so that every
 * server process counts together. Each statement is one atomic upsert: concurrent failures
 * from several processes all count, and a lock is set once.
 */

export interface LockRule {
  /** Failures (in one window) that lock the key. */
  threshold: number;
  /** The first lock; each later one in the same window doubles, up to `maxSeconds`. */
  baseSeconds: number;
  maxSeconds: number;
}

/** One account: 5 wrong passwords lock it for 1 minute, then 2, 4, ... up to an hour. */
export const ACCOUNT_RULE: LockRule = { threshold: 5, baseSeconds: 60, maxSeconds: 3600 };
/** One address, across accounts: more room (a household, an office), same back-off. */
export const ADDRESS_RULE: LockRule = { threshold: 20, baseSeconds: 60, maxSeconds: 3600 };
/** Counts (failures, guest sign-ins) start over this long after a key's first one. */
export const WINDOW_SECONDS = 24 * 60 * 60;

/**
 * A reserved attempt, or a refusal: the seconds to wait, and when this refusal set the lock, its
 * number in the window (1 for the first).
 */
export type Reservation = { reserved: true } | { reserved: false; wait: number; lock: number | null };

export class AuthCounters {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Reserves one attempt on a key before the password is checked, in one statement: the attempt
   * counts as a failure at once, and the key refuses while locked or once its count is full, so
   * parallel attempts (from any process) check at most `threshold` passwords. A refusal that
   * finds the count full sets the lock itself, so an attempt that never settles cannot leave the
   * key refusing without a lock that ends.
   */
  async reserve(key: string, rule: LockRule): Promise<Reservation> {
    const now = this.now().toISOString();
    const stale = sql`c.window_started_at <= ${now}::timestamptz - make_interval(secs => ${WINDOW_SECONDS})`;
    const reserved = await this.db.execute(sql`
      INSERT INTO auth_counters AS c (key, count, lockouts, window_started_at)
      VALUES (${key}, 1, 0, ${now}::timestamptz)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN ${stale} THEN 1 ELSE c.count + 1 END,
        lockouts = CASE WHEN ${stale} THEN 0 ELSE c.lockouts END,
        window_started_at = CASE WHEN ${stale} THEN ${now}::timestamptz ELSE c.window_started_at END
      WHERE (c.blocked_until IS NULL OR c.blocked_until <= ${now}::timestamptz)
        AND (${stale} OR c.count < ${rule.threshold})
      RETURNING count`);
    if (reserved.rows.length > 0) return { reserved: true };
    const lock = await this.lockIfFull(key, rule);
    return { reserved: false, wait: await this.lockedFor(key), lock };
  }

  /**
   * Settles a reserved attempt whose password was wrong: it stays counted, and the failure that
   * fills the count locks the key. Answers the lock's number in the window when this call set it.
   */
  async failed(key: string, rule: LockRule): Promise<number | null> {
    return this.lockIfFull(key, rule);
  }

  /**
   * Locks a key whose count is full and that is not locked already, starting its count anew;
   * the back-off doubles with each lock in the window. Of racing callers only one sets it.
   */
  private async lockIfFull(key: string, rule: LockRule): Promise<number | null> {
    const now = this.now().toISOString();
    const locked = await this.db.execute<{ lockouts: number }>(sql`
      UPDATE auth_counters SET
        count = 0,
        lockouts = lockouts + 1,
        blocked_until = ${now}::timestamptz
          + make_interval(secs => least(${rule.baseSeconds} * power(2, least(lockouts, 20)), ${rule.maxSeconds}))
      WHERE key = ${key} AND count >= ${rule.threshold}
        AND (blocked_until IS NULL OR blocked_until <= ${now}::timestamptz)
      RETURNING lockouts`);
    const lockouts = locked.rows[0]?.lockouts;
    return lockouts === undefined ? null : Number(lockouts);
  }

  /** Whole seconds until the key's lock ends; at least 1 while its count is full without one. */
  private async lockedFor(key: string): Promise<number> {
    const now = this.now();
    const [row] = await this.db
      .select({ until: authCounters.blockedUntil })
      .from(authCounters)
      .where(and(eq(authCounters.key, key), gt(authCounters.blockedUntil, now)));
    return row?.until ? Math.max(1, Math.ceil((row.until.getTime() - now.getTime()) / 1000)) : 1;
  }

  /** Forgets a key: a successful sign-in clears its account's failures and back-off. */
  async clear(key: string): Promise<void> {
    await this.db.delete(authCounters).where(eq(authCounters.key, key));
  }

  /**
   * Takes one of `limit` uses a window. Answers 0 when taken, else the whole seconds until the
   * window ends. Refused takes do not count, so waiting is enough to be let in again.
   */
  async take(key: string, limit: number, windowSeconds = WINDOW_SECONDS): Promise<number> {
    const now = this.now().toISOString();
    const stale = sql`c.window_started_at <= ${now}::timestamptz - make_interval(secs => ${windowSeconds})`;
    const taken = await this.db.execute(sql`
      INSERT INTO auth_counters AS c (key, count, lockouts, window_started_at)
      VALUES (${key}, 1, 0, ${now}::timestamptz)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN ${stale} THEN 1 ELSE c.count + 1 END,
        window_started_at = CASE WHEN ${stale} THEN ${now}::timestamptz ELSE c.window_started_at END
      WHERE ${stale} OR c.count < ${limit}
      RETURNING count`);
    if (taken.rows.length > 0) return 0;
    const [row] = await this.db
      .select({ started: authCounters.windowStartedAt })
      .from(authCounters)
      .where(eq(authCounters.key, key));
    const ends = (row?.started.getTime() ?? 0) + windowSeconds * 1000;
    return Math.max(1, Math.ceil((ends - Date.parse(now)) / 1000));
  }

  /** Returns a use taken (or an attempt reserved) for something that then failed (or did not count). */
  async giveBack(key: string): Promise<void> {
    await this.db.execute(sql`UPDATE auth_counters SET count = greatest(count - 1, 0) WHERE key = ${key}`);
  }
}

/**
 * The address a client's attempts count against. IPv6 clients usually hold a whole /64, so
 * counting per address there would give an attacker billions of fresh counters.
 */
export function addressKey(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  if (v4) return v4;
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { fromLoopback, hostNameOf } from "../../http/host-check.ts";

/**
 * The first administrator of a fresh install: the first account that signs up, when it signs up
 * from this machine or through PUBLIC_URL (decision 025: a page elsewhere on the network must not
 * claim an install its operator has not reached yet). Only accounts a person can sign in to count
 * (a sign-in method in `accounts`): guests and the system account `@hearth` that owns the demo
 * characters have none.
 */

/** Any fixed number: the advisory lock that makes concurrent first sign-ups take turns. */
export const FIRST_ADMIN_LOCK_KEY = 7_201_912;

/**
 * The header Hearth sets on what it hands better-auth: the requester as fastify derived it
 * (behind a trusted proxy, the forwarded address and host), any copy a client sent replaced.
 * It carries this process's random mark, so a client that writes it on some other way into
 * better-auth is not believed.
 */
const REQUESTER_HEADER = "x-hearth-requester";
const PROCESS_MARK = randomBytes(16).toString("hex");

/** Who signed up, as far as the first-administrator rule asks. */
export interface Requester {
  /** The request came from this machine (every address on its way loopback). */
  loopback: boolean;
  /** The host it named (Host, or X-Forwarded-Host behind a trusted proxy). */
  host: string;
}

export function requesterOf(req: FastifyRequest): Requester {
  return { loopback: fromLoopback(req), host: req.host };
}

/** `headers` plus the requester, for better-auth's hooks to read back (requesterFromHeaders). */
export function withRequester(headers: Headers, req: FastifyRequest): Headers {
  const out = new Headers(headers);
  out.set(REQUESTER_HEADER, JSON.stringify({ mark: PROCESS_MARK, ...requesterOf(req) }));
  return out;
}

/** The requester withRequester recorded, or null for a call that did not come through it. */
export function requesterFromHeaders(headers: Headers | undefined): Requester | null {
  const given = headers?.get(REQUESTER_HEADER);
  if (!given) return null;
  try {
    const { mark, loopback, host } = JSON.parse(given) as Record<string, unknown>;
    if (mark !== PROCESS_MARK || typeof loopback !== "boolean" || typeof host !== "string") return null;
    return { loopback, host };
  } catch {
    return null;
  }
}

/** Whether this requester's sign-up may make the first administrator: from this machine, or through PUBLIC_URL. */
export function mayClaimFirstAdmin(requester: Requester | null, publicUrl: string | null): boolean {
  if (!requester) return false;
  if (requester.loopback) return true;
  return publicUrl !== null && hostNameOf(requester.host) === new URL(publicUrl).hostname;
}

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
      WHERE me.id = ${userId} AND ${firstInLine}
      RETURNING me.id`);
    return result.rows.length > 0;
  });
}

/** `me` is a real account, nobody is administrator, and no real account is older. */
const firstInLine = sql`
  NOT me.is_anonymous
  AND NOT EXISTS (SELECT 1 FROM users o WHERE o.is_admin)
  AND NOT EXISTS (
    SELECT 1 FROM users o
    WHERE o.id <> me.id AND ${realAccount("o")}
      AND (o.created_at, o.id) < (me.created_at, me.id)
  )`;

/** Where the first-administrator rule tells the operator what it decided. */
export interface FirstAdminLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * After a real account is committed: it becomes the administrator when it is first in line and
 * the requester may claim; first in line but signed up from elsewhere, it stays a member and the
 * operator is told how to make it the administrator.
 */
export async function settleFirstAdmin(
  db: Db,
  user: { id: string; email: string },
  requester: Requester | null,
  publicUrl: string | null,
  log: FirstAdminLog | undefined,
): Promise<void> {
  if (mayClaimFirstAdmin(requester, publicUrl)) {
    await claimFirstAdmin(db, user.id);
    return;
  }
  const first = await db.execute<{ id: string }>(
    sql`SELECT me.id FROM users me WHERE me.id = ${user.id} AND ${firstInLine}`,
  );
  if (first.rows.length === 0) return;
  log?.warn(
    { email: user.email, host: requester?.host ?? null },
    `The first account (${user.email}) signed up from another machine${publicUrl ? ", not through PUBLIC_URL" : " and PUBLIC_URL is not set"}, so it was made a member, not the administrator. If it is yours, make it the administrator on the server: hearth user set-role ${user.email} --admin (with Hearth stopped when it uses the embedded database).`,
  );
}

/**
 * Whether this requester's next sign-up would become the administrator (no real account yet, and
 * they may claim). Once an account exists the install is no longer fresh, so `false` is
 * remembered and the query stops.
 */
export function firstAdminState(
  db: Db,
  enabled: boolean,
  publicUrl: string | null,
): (requester: Requester) => Promise<boolean> {
  let closed = !enabled;
  return async (requester) => {
    if (closed || !mayClaimFirstAdmin(requester, publicUrl)) return false;
    const result = await db.execute<{ open: boolean }>(
      sql`SELECT NOT EXISTS (SELECT 1 FROM users u WHERE ${realAccount("u")}) AS open`,
    );
    closed = !result.rows[0]?.open;
    return !closed;
  };
}

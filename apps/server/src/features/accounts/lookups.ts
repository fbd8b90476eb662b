import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { findUserByEmailOrUsername } from "./queries.ts";
import { type UserRow, users } from "./schema.ts";
import { type Viewer, viewerFromUser } from "./viewer.ts";

// What other features need to know about an account outside a request, so none of them reads
// the users table itself (decision 010).

/** The account as a viewer (permissions derived), for work done after the request: the worker. */
export async function findViewer(db: Db, userId: string): Promise<Viewer | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ? viewerFromUser(row) : null;
}

/** The account's display name, or null when it is gone. */
export async function displayNameOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.name ?? null;
}

/**
 * Serialises one account's writes elsewhere (count then insert, unset then set a default) by
 * locking its users row until the transaction ends. Answers false when the account is gone.
 */
export async function lockAccount(tx: Db, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
  return rows.length > 0;
}

/**
 * Billing's one write to an account: the role and standing its subscription grants (decision
 * 012), in the caller's transaction. Answers false when the account is gone.
 */
export async function setEntitlement(
  tx: Db,
  userId: string,
  entitlement: Pick<UserRow, "role" | "status">,
): Promise<boolean> {
  const rows = await tx
    .update(users)
    .set({ role: entitlement.role, status: entitlement.status, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** The earliest administrator, the default owner of characters imported from the command line. */
export async function firstAdministrator(db: Db): Promise<Viewer | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.isAdmin, true))
    .orderBy(asc(users.createdAt))
    .limit(1);
  return row ? viewerFromUser(row) : null;
}

/** An account by e-mail or username as a viewer, for command-line tools. */
export async function findViewerByEmailOrUsername(db: Db, who: string): Promise<Viewer | null> {
  const row = await findUserByEmailOrUsername(db, who);
  return row ? viewerFromUser(row) : null;
}

/**
 * An account nobody signs in to (no password), found by username or created: Hearth's own
 * system account owns the demo characters. Refuses when the username belongs to a person.
 */
export async function ensureSystemAccount(
  db: Db,
  account: { username: string; email: string; name: string },
): Promise<{ viewer: Viewer; created: boolean } | { takenBy: string }> {
  const existing = await findUserByEmailOrUsername(db, account.username);
  if (existing) {
    return existing.email === account.email
      ? { viewer: viewerFromUser(existing), created: false }
      : { takenBy: existing.email };
  }
  const [row] = await db
    .insert(users)
    .values({ id: randomUUID(), name: account.name, email: account.email, username: account.username })
    .returning();
  if (!row) throw new Error("could not create the system account");
  return { viewer: viewerFromUser(row), created: true };
}

/** A creator's public face by username: signed-up accounts only (guests have no page). */
export async function findCreatorByUsername(
  db: Db,
  username: string,
): Promise<{ id: string; username: string; name: string; image: string | null } | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.username, username.trim().toLowerCase()))
    .limit(1);
  if (!row || row.isAnonymous || !row.username) return null;
  return { id: row.id, username: row.username, name: row.name, image: row.image };
}

/** Whether an account with this username exists. */
export async function usernameExists(db: Db, username: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return Boolean(row);
}

export type { UserRow };

import type { AdminUser, AdminUserUpdate, ProfileUpdate } from "@hearth/contract";
import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { SettingsColumns } from "./profile-rules.ts";
import { type UserRow, users } from "./schema.ts";

export function toAdminUser(u: UserRow): AdminUser {
  return {
    id: u.id,
    email: u.isAnonymous ? null : u.email,
    name: u.name,
    username: u.username,
    role: u.role,
    status: u.status,
    restriction: u.restriction,
    is_guest: u.isAnonymous,
    is_admin: u.isAdmin,
    created_at: u.createdAt.toISOString(),
  };
}

/** Newest first; the cursor is the created_at|id of the last row of the previous page. */
export async function listUsers(db: Db, opts: { q?: string; limit: number; cursor?: string }) {
  const filters: SQL[] = [];
  if (opts.q) {
    const like = `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(ilike(users.email, like), ilike(users.name, like), ilike(users.username, like));
    if (match) filters.push(match);
  }
  const cursor = decodeCursor(opts.cursor);
  if (cursor) {
    const before = or(
      lt(users.createdAt, cursor.at),
      and(eq(users.createdAt, cursor.at), lt(users.id, cursor.id)),
    );
    if (before) filters.push(before);
  }
  const rows = await db
    .select()
    .from(users)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    users: page.map(toAdminUser),
    next_cursor: rows.length > opts.limit && last ? `${last.createdAt.toISOString()}|${last.id}` : null,
  };
}

function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split("|");
  const date = new Date(at ?? "");
  return id && !Number.isNaN(date.getTime()) ? { at: date, id } : null;
}

export async function updateUser(db: Db, id: string, change: AdminUserUpdate): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({
      ...(change.role !== undefined && { role: change.role }),
      ...(change.status !== undefined && { status: change.status }),
      ...(change.restriction !== undefined && { restriction: change.restriction }),
      ...(change.is_admin !== undefined && { isAdmin: change.is_admin }),
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

export async function findUserByEmailOrUsername(db: Db, who: string): Promise<UserRow | null> {
  const key = who.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(users.email, key), eq(users.username, key)))
    .limit(1);
  return row ?? null;
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return Boolean(row);
}

/**
 * Writes the changed profile fields and settings columns in one statement (so a refused username
 * leaves the settings unsaved too); a changed e-mail must be confirmed again.
 */
export async function updateProfile(
  db: Db,
  id: string,
  change: ProfileUpdate,
  settings: SettingsColumns = {},
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({
      ...settings,
      ...(change.username !== undefined && { username: change.username }),
      ...(change.name !== undefined && { name: change.name }),
      // An address replaces an uploaded avatar (the route removes its files).
      ...(change.avatar_url !== undefined && { image: change.avatar_url, avatarKey: null }),
      ...(change.email !== undefined && { email: change.email, emailVerified: false }),
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

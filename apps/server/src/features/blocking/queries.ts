import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { blockedCreators } from "./schema.ts";

/** A blocked creator with the name and picture the Blocked creators page shows (users joined read-only). */
export interface BlockedCreatorRow {
  id: string;
  username: string | null;
  name: string | null;
  image: string | null;
  blockedAt: Date;
}

export function listBlockedCreators(db: Db, userId: string): Promise<BlockedCreatorRow[]> {
  return db
    .select({
      id: blockedCreators.creatorUserId,
      username: users.username,
      name: users.name,
      image: users.image,
      blockedAt: blockedCreators.createdAt,
    })
    .from(blockedCreators)
    .innerJoin(users, eq(users.id, blockedCreators.creatorUserId))
    .where(eq(blockedCreators.userId, userId))
    .orderBy(desc(blockedCreators.createdAt), blockedCreators.creatorUserId);
}

/** Blocking twice keeps the first block (and its date). */
export async function insertBlock(db: Db, userId: string, creatorUserId: string): Promise<void> {
  await db.insert(blockedCreators).values({ userId, creatorUserId }).onConflictDoNothing();
}

export async function deleteBlock(db: Db, userId: string, creatorUserId: string): Promise<void> {
  await db
    .delete(blockedCreators)
    .where(and(eq(blockedCreators.userId, userId), eq(blockedCreators.creatorUserId, creatorUserId)));
}

export async function isBlocked(db: Db, userId: string, creatorUserId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(blockedCreators)
    .where(and(eq(blockedCreators.userId, userId), eq(blockedCreators.creatorUserId, creatorUserId)))
    .limit(1);
  return rows.length > 0;
}

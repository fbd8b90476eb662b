import { randomUUID } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { characters } from "../characters/schema.ts";
import { personas } from "../personas/schema.ts";
import { users } from "./schema.ts";

// Account deletion's reads of other features' tables (decision 010 lets queries read them).
// Every row the account owns goes with it by the foreign keys' ON DELETE CASCADE; the writes to
// other features' rows go through their index (deletion.ts).

/** Locks the account and every administrator row, so two last admins cannot both leave. */
export async function lockForDeletion(tx: Db, userId: string) {
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).for("update");
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  return { row: row ?? null, adminIds: admins.map((a) => a.id) };
}

/** Avatar storage prefixes of the account's personas. */
export async function personaAvatarKeys(tx: Db, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ key: personas.avatarKey })
    .from(personas)
    .where(and(eq(personas.userId, userId), isNotNull(personas.avatarKey)));
  return rows.flatMap((r) => (r.key ? [r.key] : []));
}

/** The account's bots: id, avatar prefix and whether others could have chatted with them. */
export async function ownedBots(tx: Db, userId: string) {
  const rows = await tx
    .select({ id: characters.id, key: characters.avatarKey, visibility: characters.visibility })
    .from(characters)
    .where(eq(characters.creatorUserId, userId));
  return rows.map((r) => ({
    id: r.id,
    avatarKey: r.key,
    // Only public and hidden (link-shared) bots can have other members' chats.
    shared: r.visibility === "public" || r.visibility === "hidden",
  }));
}

/** Deletes the account row; the cascade takes sessions, chats, personas, favourites, ratings, blocks and its bots. */
export async function deleteUserRow(tx: Db, userId: string): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}

/** Whether anyone but `userId` still administers this install. */
export const otherAdmins = (adminIds: string[], userId: string) => adminIds.some((id) => id !== userId);

/** The key of the account that owns the kept bots of deleted creators (users.system_account). */
export const DELETED_CREATOR_ACCOUNT = "deleted-creator";
export const DELETED_CREATOR_NAME = "Deleted user";

/**
 * The id of the deleted creators' account, created on first use. It is found by its system key,
 * never by a name, and made with no username and an address derived from its fresh id, so no
 * member's username or e-mail can stand in its way. Two first uses at once: the unique key lets
 * one insert win and the other find it.
 */
export async function deletedCreatorAccount(tx: Db): Promise<string> {
  const found = async () =>
    (
      await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.systemAccount, DELETED_CREATOR_ACCOUNT))
        .limit(1)
    )[0]?.id;
  const existing = await found();
  if (existing) return existing;
  const id = randomUUID();
  await tx
    .insert(users)
    .values({
      id,
      name: DELETED_CREATOR_NAME,
      email: `system-${id}@hearth.invalid`,
      username: null,
      systemAccount: DELETED_CREATOR_ACCOUNT,
    })
    .onConflictDoNothing({ target: users.systemAccount });
  const made = await found();
  if (!made) throw new Error("the deleted creators' account could not be created");
  return made;
}

import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { type CharacterRow, characters, favorites, type NewCharacterRow } from "./schema.ts";

/** A character as read for one viewer: the row, its creator's username, and the viewer's favorite. */
export interface FoundCharacter {
  character: CharacterRow;
  creatorUsername: string | null;
  isFavorite: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads a character (deleted ones too: the policy decides what the viewer learns). */
export async function findCharacter(
  db: Db,
  id: string,
  viewerId: string | null = null,
): Promise<FoundCharacter | null> {
  // A malformed id cannot name a row; asking PostgreSQL would be a cast error, not a miss.
  if (!UUID.test(id)) return null;
  const isFavorite = viewerId
    ? sql<boolean>`exists (select 1 from ${favorites} where ${favorites.characterId} = ${characters.id} and ${favorites.userId} = ${viewerId})`
    : sql<boolean>`false`;
  const [row] = await db
    .select({ character: characters, creatorUsername: users.username, isFavorite })
    .from(characters)
    .innerJoin(users, eq(users.id, characters.creatorUserId))
    .where(eq(characters.id, id))
    .limit(1);
  return row ?? null;
}

/** A character that is not deleted, read for the server's own work (no viewer involved). */
export async function findLiveCharacter(db: Db, id: string): Promise<CharacterRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select()
    .from(characters)
    .where(and(eq(characters.id, id), isNull(characters.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function insertCharacter(db: Db, values: NewCharacterRow): Promise<CharacterRow> {
  const [row] = await db.insert(characters).values(values).returning();
  if (!row) throw new Error("insert into characters returned no row");
  return row;
}

export async function updateCharacter(
  db: Db,
  id: string,
  change: Partial<NewCharacterRow>,
): Promise<CharacterRow | null> {
  const [row] = await db
    .update(characters)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(characters.id, id), isNull(characters.deletedAt)))
    .returning();
  return row ?? null;
}

/** Soft delete; favorites of the bot go at once (their lists would not show it anyway). */
/** Gives bots a new creator (a deleted account's shared bots go to the "deleted user" account). */
export async function handCharactersTo(db: Db, characterIds: string[], toUserId: string): Promise<void> {
  if (characterIds.length === 0) return;
  await db.update(characters).set({ creatorUserId: toUserId }).where(inArray(characters.id, characterIds));
}

export async function softDeleteCharacter(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(characters)
      .set({ deletedAt: new Date(), avatarKey: null, artKey: null, numFavorites: 0 })
      .where(eq(characters.id, id));
    await tx.delete(favorites).where(eq(favorites.characterId, id));
  });
}

/** Adds a favorite once; the bot's count moves only when a row was really added. */
export async function addFavorite(db: Db, userId: string, characterId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const added = await tx
      .insert(favorites)
      .values({ userId, characterId })
      .onConflictDoNothing()
      .returning({ characterId: favorites.characterId });
    return bumpFavorites(tx as unknown as Db, characterId, added.length);
  });
}

export async function removeFavorite(db: Db, userId: string, characterId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(favorites)
      .where(and(eq(favorites.userId, userId), eq(favorites.characterId, characterId)))
      .returning({ characterId: favorites.characterId });
    return bumpFavorites(tx as unknown as Db, characterId, -removed.length);
  });
}

async function bumpFavorites(db: Db, characterId: string, by: number): Promise<number> {
  const [row] = await db
    .update(characters)
    .set({ numFavorites: sql`greatest(${characters.numFavorites} + ${by}, 0)` })
    .where(eq(characters.id, characterId))
    .returning({ numFavorites: characters.numFavorites });
  return row?.numFavorites ?? 0;
}

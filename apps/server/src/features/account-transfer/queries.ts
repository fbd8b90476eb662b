import type { LorebookBody } from "@hearth/contract";
import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";
import { conversations } from "../chats/schema.ts";
import { lorebooks } from "../lorebooks/schema.ts";
import { personas } from "../personas/schema.ts";

/** The ids of the live characters the member made, oldest first. */
export async function ownCharacterIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: characters.id })
    .from(characters)
    .where(and(eq(characters.creatorUserId, userId), isNull(characters.deletedAt)))
    .orderBy(asc(characters.createdAt), asc(characters.id));
  return rows.map((r) => r.id);
}

/** The member's saved conversations (a guest's temporary ones are not), oldest first. */
export function ownConversations(db: Db, userId: string) {
  return db
    .select({
      id: conversations.id,
      characterId: conversations.characterId,
      userPersonaId: conversations.userPersonaId,
    })
    .from(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.isSaved, true)))
    .orderBy(asc(conversations.createdAt), asc(conversations.id));
}

export function ownPersonas(db: Db, userId: string) {
  return db
    .select()
    .from(personas)
    .where(eq(personas.userId, userId))
    .orderBy(asc(personas.createdAt), asc(personas.id));
}

/** The member's preferences (never the model key, password or sessions). */
export async function readSettings(db: Db, userId: string) {
  const [row] = await db
    .select({
      highlights: users.highlights,
      showNsfw: users.showNsfw,
      adultConfirmedAt: users.adultConfirmedAt,
      llmMode: users.llmMode,
      hasKey: users.llmApiKeyEncrypted,
      defaultModelId: users.defaultModelId,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export async function writeSettings(
  db: Db,
  userId: string,
  change: Partial<{
    highlights: string;
    showNsfw: boolean;
    llmMode: "disabled" | "enabled" | "hybrid";
    defaultModelId: string | null;
  }>,
): Promise<void> {
  if (Object.keys(change).length === 0) return;
  await db
    .update(users)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** The member's standalone lorebooks (the wire form kept in `book`), oldest first. */
export function ownLorebooks(db: Db, userId: string) {
  return db
    .select({ id: lorebooks.id, book: lorebooks.book })
    .from(lorebooks)
    .where(eq(lorebooks.userId, userId))
    .orderBy(asc(lorebooks.createdAt), asc(lorebooks.id));
}

export async function countLorebooks(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(lorebooks).where(eq(lorebooks.userId, userId));
  return row?.n ?? 0;
}

/** Stores a lorebook as the lorebooks feature's create does (name and description beside the book). */
export async function insertLorebook(db: Db, userId: string, book: LorebookBody): Promise<string> {
  const [row] = await db
    .insert(lorebooks)
    .values({ userId, name: book.name, description: book.description, book })
    .returning({ id: lorebooks.id });
  return (row as { id: string }).id;
}

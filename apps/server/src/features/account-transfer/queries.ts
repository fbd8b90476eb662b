import type { LorebookBody } from "@hearth/contract";
import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";
import { conversations } from "../chats/schema.ts";
import { lorebooks } from "../lorebooks/schema.ts";
import { personas } from "../personas/schema.ts";
import { accountImportItems } from "./schema.ts";

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

export type ImportedKind = "character" | "conversation" | "lorebook";

/**
 * What an earlier import of this archive brought in and the member still has, as
 * `kind:sourceId` → id here. An item deleted since is left out, so importing again restores it.
 */
export async function alreadyImported(
  db: Db,
  userId: string,
  archiveSha256: string,
): Promise<Map<string, string>> {
  const rows = await db
    .select({
      kind: accountImportItems.kind,
      sourceId: accountImportItems.sourceId,
      targetId: accountImportItems.targetId,
    })
    .from(accountImportItems)
    .where(and(eq(accountImportItems.userId, userId), eq(accountImportItems.archiveSha256, archiveSha256)));
  if (rows.length === 0) return new Map();
  const ids = (kind: ImportedKind) => rows.filter((r) => r.kind === kind).map((r) => r.targetId);
  const live = new Set<string>();
  const add = (found: Array<{ id: string }>) => {
    for (const r of found) live.add(r.id);
  };
  if (ids("character").length)
    add(
      await db
        .select({ id: characters.id })
        .from(characters)
        .where(
          and(
            inArray(characters.id, ids("character")),
            eq(characters.creatorUserId, userId),
            isNull(characters.deletedAt),
          ),
        ),
    );
  if (ids("conversation").length)
    add(
      await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(inArray(conversations.id, ids("conversation")), eq(conversations.userId, userId))),
    );
  if (ids("lorebook").length)
    add(
      await db
        .select({ id: lorebooks.id })
        .from(lorebooks)
        .where(and(inArray(lorebooks.id, ids("lorebook")), eq(lorebooks.userId, userId))),
    );
  return new Map(
    rows.filter((r) => live.has(r.targetId)).map((r) => [`${r.kind}:${r.sourceId}`, r.targetId]),
  );
}

/** Records that an item of the archive is now `targetId` here (the latest wins). */
export async function recordImported(
  db: Db,
  userId: string,
  archiveSha256: string,
  kind: ImportedKind,
  sourceId: string,
  targetId: string,
): Promise<void> {
  await db
    .insert(accountImportItems)
    .values({ userId, archiveSha256, kind, sourceId, targetId })
    .onConflictDoUpdate({
      target: [
        accountImportItems.userId,
        accountImportItems.archiveSha256,
        accountImportItems.kind,
        accountImportItems.sourceId,
      ],
      set: { targetId, createdAt: new Date() },
    });
}

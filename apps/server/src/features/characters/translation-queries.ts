import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type CharacterTranslationRow, characterTranslations } from "./schema.ts";

/** A bot's translations (issue 17 item 5). */

export type TranslationFields = Pick<
  CharacterTranslationRow,
  "name" | "title" | "greeting" | "persona" | "scenario" | "dialogue"
>;

export function listTranslations(db: Db, characterId: string) {
  return db
    .select()
    .from(characterTranslations)
    .where(eq(characterTranslations.characterId, characterId))
    .orderBy(asc(characterTranslations.language));
}

export async function findTranslation(db: Db, characterId: string, language: string) {
  const [row] = await db
    .select()
    .from(characterTranslations)
    .where(
      and(eq(characterTranslations.characterId, characterId), eq(characterTranslations.language, language)),
    );
  return row ?? null;
}

export async function upsertTranslation(
  db: Db,
  characterId: string,
  language: string,
  fields: TranslationFields,
) {
  const [row] = await db
    .insert(characterTranslations)
    .values({ characterId, language, ...fields })
    .onConflictDoUpdate({
      target: [characterTranslations.characterId, characterTranslations.language],
      set: { ...fields, updatedAt: new Date() },
    })
    .returning();
  if (!row) throw new Error("upsert returned nothing");
  return row;
}

export async function deleteTranslation(db: Db, characterId: string, language: string): Promise<boolean> {
  const gone = await db
    .delete(characterTranslations)
    .where(
      and(eq(characterTranslations.characterId, characterId), eq(characterTranslations.language, language)),
    )
    .returning({ language: characterTranslations.language });
  return gone.length > 0;
}

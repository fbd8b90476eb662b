import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { setCharacterRatingScore } from "../characters/index.ts";
import {
  type CharacterRatingRow,
  characterRatings,
  type TagSuggestionRow,
  tagSuggestions,
} from "./schema.ts";

/** Interaction scores of the chatbot rating values (chat-and-characters §9). */
export const INTERACTION_SCORE: Record<1 | 3 | 5, number> = { 1: -1, 3: 0.5, 5: 1 };

/**
 * rating_score = the share of a bot's ratings that are like or love (0..1), null without any.
 * The profile shows it as the like percent. A plain share (not the mean interaction score) so
 * "80% liked" means what it says; love and like count alike here, the interaction scores keep
 * the difference for recommendations and the leaderboard.
 */
const likeShare = sql<number>`(count(*) filter (where ${characterRatings.rating} >= 3))::float / nullif(count(*), 0)`;

export interface RatingFigures {
  ratings: number;
  ratingScore: number | null;
}

export async function ratingFigures(db: Db, characterId: string): Promise<RatingFigures> {
  const [row] = await db
    .select({ ratings: count(), share: likeShare })
    .from(characterRatings)
    .where(eq(characterRatings.characterId, characterId));
  return { ratings: Number(row?.ratings ?? 0), ratingScore: row?.share === null ? null : Number(row?.share) };
}

/**
 * Stores a member's rating (again: replaces it) and the bot's new rating_score in one
 * transaction. Ratings of one bot are serialised by an advisory lock on its id, so two raters at
 * once cannot both compute the score from a count missing the other.
 */
export async function saveRating(
  db: Db,
  r: { userId: string; characterId: string; rating: 1 | 3 | 5; conversationLength: number },
  at = new Date(),
): Promise<RatingFigures> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rating:${r.characterId}`}))`);
    const values = {
      userId: r.userId,
      characterId: r.characterId,
      rating: r.rating,
      score: INTERACTION_SCORE[r.rating],
      conversationLength: r.conversationLength,
      updatedAt: at,
    };
    await tx
      .insert(characterRatings)
      .values({ ...values, createdAt: at })
      .onConflictDoUpdate({ target: [characterRatings.userId, characterRatings.characterId], set: values });
    const figures = await ratingFigures(tx, r.characterId);
    await setCharacterRatingScore(tx, r.characterId, figures.ratingScore);
    return figures;
  });
}

/** The bots this account rated (their scores change when its ratings go). */
export async function ratedCharacterIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: characterRatings.characterId })
    .from(characterRatings)
    .where(eq(characterRatings.userId, userId));
  return rows.map((r) => r.id);
}

/** Recomputes bots' rating_score from their ratings, under the same per-bot lock as saveRating. */
export async function refreshRatingScores(tx: Db, characterIds: string[]): Promise<void> {
  // Sorted, so two deletions touching the same bots take the locks in one order.
  for (const id of [...characterIds].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rating:${id}`}))`);
    await setCharacterRatingScore(tx, id, (await ratingFigures(tx, id)).ratingScore);
  }
}

export async function findRating(
  db: Db,
  userId: string,
  characterId: string,
): Promise<CharacterRatingRow | null> {
  const [row] = await db
    .select()
    .from(characterRatings)
    .where(and(eq(characterRatings.userId, userId), eq(characterRatings.characterId, characterId)))
    .limit(1);
  return row ?? null;
}

// --- Tag suggestions ------------------------------------------------------------------------

/** A member's newer suggestion replaces their pending one (one pending per member and bot). */
export async function replacePendingSuggestion(
  db: Db,
  s: { userId: string; characterId: string; add: string[]; remove: string[] },
): Promise<TagSuggestionRow> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await deletePendingSuggestion(tx, s.userId, s.characterId);
    const [row] = await tx
      .insert(tagSuggestions)
      .values({ userId: s.userId, characterId: s.characterId, tagsToAdd: s.add, tagsToRemove: s.remove })
      .returning();
    if (!row) throw new Error("insert into tag_suggestions returned no row");
    return row;
  });
}

/** Discard: the member's pending suggestion goes; answers whether there was one. */
export async function deletePendingSuggestion(db: Db, userId: string, characterId: string): Promise<boolean> {
  const gone = await db
    .delete(tagSuggestions)
    .where(
      and(
        eq(tagSuggestions.userId, userId),
        eq(tagSuggestions.characterId, characterId),
        eq(tagSuggestions.status, "pending"),
      ),
    )
    .returning({ id: tagSuggestions.id });
  return gone.length > 0;
}

export interface SuggestionWithAuthor {
  suggestion: TagSuggestionRow;
  username: string | null;
}

const withAuthor = { suggestion: tagSuggestions, username: users.username };

/** A bot's pending suggestions, oldest first, with each author's @username (read-only join). */
export async function pendingSuggestions(db: Db, characterId: string): Promise<SuggestionWithAuthor[]> {
  return db
    .select(withAuthor)
    .from(tagSuggestions)
    .innerJoin(users, eq(users.id, tagSuggestions.userId))
    .where(and(eq(tagSuggestions.characterId, characterId), eq(tagSuggestions.status, "pending")))
    .orderBy(asc(tagSuggestions.createdAt), asc(tagSuggestions.id));
}

export async function findSuggestion(db: Db, id: string): Promise<SuggestionWithAuthor | null> {
  const [row] = await db
    .select(withAuthor)
    .from(tagSuggestions)
    .innerJoin(users, eq(users.id, tagSuggestions.userId))
    .where(eq(tagSuggestions.id, id))
    .limit(1);
  return row ?? null;
}

/** Settles a pending suggestion; null when it was no longer pending (decided meanwhile). */
export async function settleSuggestion(
  db: Db,
  id: string,
  status: "accepted" | "dismissed",
): Promise<TagSuggestionRow | null> {
  const [row] = await db
    .update(tagSuggestions)
    .set({ status })
    .where(and(eq(tagSuggestions.id, id), eq(tagSuggestions.status, "pending")))
    .returning();
  return row ?? null;
}

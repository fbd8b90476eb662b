import { LEADERBOARD_WEIGHTS, LEADERBOARD_WINNERS, type LeaderboardType } from "@hearth/contract";
import { and, asc, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { characterMonthlyMessages, characters, favorites } from "../characters/schema.ts";
import { characterRatings } from "../ratings/schema.ts";
import { addMonths, monthStart } from "./months.ts";
import { type LeaderboardEntryRow, leaderboardEntries } from "./schema.ts";

/**
 * The leaderboard's reads of other features' tables are read-only joins (decision 010): it
 * scores bots by their month's messages, ratings and favourites and names their creators.
 */

export interface RankedCreator {
  creatorUserId: string;
  numberOfCharacters: number;
  score: number;
}

/**
 * The month's top creators of a category, scored as LEADERBOARD_WEIGHTS says (contract
 * leaderboard.ts): per listed bot, messages that month + 10 × the interaction scores (-1, 0.5,
 * 1) of ratings given or changed that month + 5 × favourites added that month, summed per
 * creator. New Bots counts only bots created that month; All Bots every bot that existed by the
 * month's end. Creators with no positive score are not ranked; ties go to more bots, then the
 * older account. The system account that owns the demo bots is never ranked: it is not a
 * creator, and on a small instance it would top every month.
 */
export async function scoreMonth(
  db: Db,
  month: string,
  category: LeaderboardType,
  systemUsername: string,
): Promise<RankedCreator[]> {
  const start = monthStart(month);
  const end = monthStart(addMonths(month, 1));
  const c = characters;
  const messages = db
    .select({ characterId: characterMonthlyMessages.characterId, n: characterMonthlyMessages.messages })
    .from(characterMonthlyMessages)
    .where(eq(characterMonthlyMessages.month, month))
    .as("m");
  const ratings = db
    .select({
      characterId: characterRatings.characterId,
      s: sql<number>`sum(${characterRatings.score})`.as("s"),
    })
    .from(characterRatings)
    .where(and(gte(characterRatings.updatedAt, start), lt(characterRatings.updatedAt, end)))
    .groupBy(characterRatings.characterId)
    .as("r");
  const favs = db
    .select({ characterId: favorites.characterId, n: count().as("n") })
    .from(favorites)
    .where(and(gte(favorites.createdAt, start), lt(favorites.createdAt, end)))
    .groupBy(favorites.characterId)
    .as("f");
  // The weights are constants, written into the statement (not bound) so they type as numbers.
  const w = {
    message: sql.raw(String(LEADERBOARD_WEIGHTS.message)),
    rating: sql.raw(String(LEADERBOARD_WEIGHTS.rating)),
    favorite: sql.raw(String(LEADERBOARD_WEIGHTS.favorite)),
  };
  const score = sql<number>`greatest(sum(
      coalesce(${messages.n}, 0) * ${w.message}
    + coalesce(${ratings.s}, 0) * ${w.rating}
    + coalesce(${favs.n}, 0) * ${w.favorite}
  ), 0)::float`;
  const created =
    category === "new_bots" ? and(gte(c.createdAt, start), lt(c.createdAt, end)) : lt(c.createdAt, end);
  const rows = await db
    .select({ creatorUserId: c.creatorUserId, bots: count(), score })
    .from(c)
    .innerJoin(users, eq(users.id, c.creatorUserId))
    .leftJoin(messages, eq(messages.characterId, c.id))
    .leftJoin(ratings, eq(ratings.characterId, c.id))
    .leftJoin(favs, eq(favs.characterId, c.id))
    .where(
      and(
        // Listed bots only (as browse lists them): private, deleted, rejected or underage ones are not in the running.
        sql`${c.visibility} = 'public' and ${c.deletedAt} is null and ${c.moderationStatus} <> 'fix_required' and not ${c.isUnderage}`,
        sql`${users.username} is distinct from ${systemUsername}`,
        created,
      ),
    )
    .groupBy(c.creatorUserId, users.createdAt)
    .having(sql`${score} > 0`)
    .orderBy(desc(score), desc(count()), asc(users.createdAt), asc(c.creatorUserId))
    .limit(LEADERBOARD_WINNERS);
  return rows.map((r) => ({
    creatorUserId: r.creatorUserId,
    numberOfCharacters: Number(r.bots),
    score: Number(r.score),
  }));
}

/**
 * Replaces a month's entries of one category in one transaction, so readers see the old table or
 * the new one, never half. Movement is the previous month's rank minus this one (positive: up).
 * Two processes computing the same month take turns on an advisory lock.
 */
export async function writeMonth(
  db: Db,
  month: string,
  category: LeaderboardType,
  ranked: RankedCreator[],
  at = new Date(),
): Promise<void> {
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`leaderboard:${month}:${category}`}))`);
    const before = await tx
      .select({ creatorUserId: leaderboardEntries.creatorUserId, rank: leaderboardEntries.rank })
      .from(leaderboardEntries)
      .where(
        and(eq(leaderboardEntries.month, addMonths(month, -1)), eq(leaderboardEntries.category, category)),
      );
    const previousRank = new Map(before.map((r) => [r.creatorUserId, r.rank]));
    await tx
      .delete(leaderboardEntries)
      .where(and(eq(leaderboardEntries.month, month), eq(leaderboardEntries.category, category)));
    if (ranked.length === 0) return;
    await tx.insert(leaderboardEntries).values(
      ranked.map((r, i) => {
        const previous = previousRank.get(r.creatorUserId);
        return {
          month,
          category,
          creatorUserId: r.creatorUserId,
          rank: i + 1,
          numberOfCharacters: r.numberOfCharacters,
          score: r.score,
          movement: previous === undefined ? null : previous - (i + 1),
          computedAt: at,
        };
      }),
    );
  });
}

/** Whether a month's table was computed after it ended (then it is final and left alone). */
export async function isFinal(db: Db, month: string): Promise<boolean> {
  const [row] = await db
    .select({ id: leaderboardEntries.month })
    .from(leaderboardEntries)
    .where(
      and(
        eq(leaderboardEntries.month, month),
        gte(leaderboardEntries.computedAt, monthStart(addMonths(month, 1))),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Months with entries, newest first. */
export async function availableMonths(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ month: leaderboardEntries.month })
    .from(leaderboardEntries)
    .orderBy(desc(leaderboardEntries.month));
  return rows.map((r) => r.month);
}

export interface EntryWithCreator {
  entry: LeaderboardEntryRow;
  username: string | null;
  image: string | null;
}

export async function monthEntries(
  db: Db,
  month: string,
  category: LeaderboardType,
  page: { offset: number; limit: number },
): Promise<{ rows: EntryWithCreator[]; total: number }> {
  const where = and(eq(leaderboardEntries.month, month), eq(leaderboardEntries.category, category));
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: leaderboardEntries, username: users.username, image: users.image })
      .from(leaderboardEntries)
      .innerJoin(users, eq(users.id, leaderboardEntries.creatorUserId))
      .where(where)
      .orderBy(asc(leaderboardEntries.rank))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(leaderboardEntries).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

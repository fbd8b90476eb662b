import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { blockedCreators } from "../blocking/schema.ts";
import { characters as c, favorites } from "../characters/schema.ts";
import { conversations } from "../chats/schema.ts";
import { characterRatings } from "../ratings/schema.ts";

/**
 * The ranking behind Recommended Bots, one SQL statement (read-only joins of the characters,
 * chats, ratings and blocking tables; decision 010), measured offline by bench/recommendations.ts
 * (docs/PERFORMANCE.md).
 *
 * 1. Interactions: for each bot the viewer touched, a weight w =
 *      ln(1 + messages in their chats with it)      (chats: more talk, more liking, diminishing)
 *    + 2 × their rating's interaction score         (dislike -1, like 0.5, love 1: §9; a dislike pushes away)
 *    + 3 if it is a favourite                        (the strongest explicit signal)
 * 2. Taste: each tag's affinity a(t) = Σ w / √(tags of that bot) over the bots carrying t (a
 *    bot with many tags spreads its weight thin), normalised by the vector's length.
 * 3. Each candidate bot scores (RANKING_WEIGHTS)
 *      0.50 × taste   = Σ a(t) over its tags / (|a| · √(its tags))   (cosine of tag vectors, -1..1)
 *    + 1.00 × popularity = ln(1 + messages + 5 × favourites) / the candidates' highest
 *    + 0.10 × rating (rating_score, 0.5 when unrated)
 *    + 0.05 × freshness = exp(-age in days / 30)
 *    Popularity is on a log scale: a good taste match (cosine 0.6, +0.3) outweighs about a 15x
 *    difference in use when the top bot has ~10^4 messages, not a 1000x one. The weights are
 *    the best of a sweep in bench/recommendations.ts (docs/PERFORMANCE.md): more taste weight
 *    buried well-used bots under niche tag matches, less left popularity alone.
 *    With no interactions (guests, signed-out visitors, new members) taste is 0 and the score is
 *    the popular-and-new mix: well-used bots first, new ones lifted a little by freshness.
 * 4. Candidates: listed bots (public, live, not rejected, not underage), NSFW only when asked,
 *    carrying every selected tag, not the viewer's own, not by a creator they blocked, not a
 *    favourite already, and not one they already chat with heavily (HEAVY_CHAT_MESSAGES or
 *    more messages): recommendations are for finding new bots, and those are a click away in
 *    Favorites and Chats.
 */

export const HEAVY_CHAT_MESSAGES = 20;

/** The score's weights (see above); the bench sweeps the taste weight. */
export const RANKING_WEIGHTS = { taste: 0.5, popularity: 1, rating: 0.1, freshness: 0.05 };
export type RankingWeights = typeof RANKING_WEIGHTS;

export interface RecommendOptions {
  /** The viewer; null for signed-out visitors (no interactions, no blocks). */
  userId: string | null;
  nsfw: boolean;
  tags: string[];
  limit: number;
  /** "popular": the baseline the bench compares with (popularity alone, same candidates). */
  mode?: "ranked" | "popular";
  weights?: RankingWeights;
}

export interface Recommended {
  id: string;
  score: number;
  taste: number;
}

function textArray(values: string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

export async function recommend(
  db: Db,
  o: RecommendOptions,
): Promise<{ rows: Recommended[]; personalized: boolean }> {
  // No account: a value no user id can equal keeps one statement for every viewer.
  const u = o.userId ?? "";
  const w = o.weights ?? RANKING_WEIGHTS;
  const listed = sql`${c.visibility} = 'public' and ${c.deletedAt} is null and ${c.moderationStatus} <> 'fix_required' and not ${c.isUnderage}`;
  const score =
    o.mode === "popular"
      ? sql`pop`
      : sql`${w.taste}::float8 * coalesce(taste, 0) + ${w.popularity}::float8 * pop / greatest(max(pop) over (), 1e-9)
          + ${w.rating}::float8 * rating + ${w.freshness}::float8 * fresh`;
  const result = await db.execute<{ id: string; score: number; taste: number | null; touched: number }>(sql`
    with interactions as (
      select character_id, sum(w) as w from (
        select ${conversations.characterId} as character_id, ln(1 + sum(${conversations.messageCount}))::float8 as w
          from ${conversations} where ${conversations.userId} = ${u} group by ${conversations.characterId}
        union all
        select ${characterRatings.characterId}, 2 * ${characterRatings.score}::float8
          from ${characterRatings} where ${characterRatings.userId} = ${u}
        union all
        select ${favorites.characterId}, 3.0::float8 from ${favorites} where ${favorites.userId} = ${u}
      ) x group by character_id
    ),
    taste as (
      select t.tag, sum(i.w / sqrt(greatest(cardinality(ch.tags), 1))) as a
        from interactions i
        join ${c} ch on ch.id = i.character_id
        cross join unnest(ch.tags) as t(tag)
        group by t.tag
    ),
    norm as (select sqrt(sum(a * a)) as n from taste),
    heavy as (
      select ${conversations.characterId} as character_id from ${conversations}
        where ${conversations.userId} = ${u}
        group by ${conversations.characterId}
        having sum(${conversations.messageCount}) >= ${HEAVY_CHAT_MESSAGES}
    ),
    scored as (
      select ${c.id} as id,
        (select sum(taste.a) from taste where taste.tag = any(${c.tags}))
          / nullif((select n from norm), 0) / sqrt(greatest(cardinality(${c.tags}), 1)) as taste,
        ln(1 + ${c.numMessages} + 5 * ${c.numFavorites})::float8 as pop,
        coalesce(${c.ratingScore}, 0.5)::float8 as rating,
        exp(-extract(epoch from (now() - ${c.createdAt})) / 86400.0 / 30.0)::float8 as fresh
      from ${c}
      where ${listed}
        ${o.nsfw ? sql`` : sql`and ${c.isNsfw} = false`}
        ${o.tags.length ? sql`and ${c.tags} @> ${textArray(o.tags)}` : sql``}
        and ${c.creatorUserId} <> ${u}
        and not exists (select 1 from ${blockedCreators} b where b.user_id = ${u} and b.creator_user_id = ${c.creatorUserId})
        and not exists (select 1 from ${favorites} f where f.user_id = ${u} and f.character_id = ${c.id})
        and ${c.id} not in (select character_id from heavy)
    )
    select id, (${score})::float8 as score, taste::float8 as taste,
      (select count(*) from interactions)::int as touched
    from scored
    order by score desc, id
    limit ${o.limit}`);
  const rows = result.rows.map((r) => ({ id: r.id, score: Number(r.score), taste: Number(r.taste ?? 0) }));
  // Whether the viewer's own history shaped this list (no rows: nothing to tell, not personal).
  const personalized = o.mode !== "popular" && Number(result.rows[0]?.touched ?? 0) > 0;
  return { rows, personalized };
}

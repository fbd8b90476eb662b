import type { ModerationStatus, Visibility } from "@hearth/contract";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../accounts/schema.ts";
import { blockedCreators } from "../blocking/schema.ts";
import {
  afterCursor,
  type CursorValue,
  decodeCursor,
  keyValues,
  orderTerms,
  page,
  type SortKey,
} from "./cursor.ts";
import { type CharacterRow, characters, favorites } from "./schema.ts";

/** A row for a grid card, with the key values the next page's cursor is made of. */
export interface CardRow {
  character: CharacterRow;
  creatorUsername: string | null;
  cursorKeys: CursorValue[];
}

export interface CardPage {
  rows: CardRow[];
  nextCursor: string | null;
}

const c = characters;
const id = (dir: SortKey["dir"]): SortKey => ({ expr: sql`${c.id}`, dir, type: "uuid" });

/**
 * Listed bots: public, not deleted, not sent back by a moderator. Written as literals so the
 * planner matches the partial browse indexes (schema.ts) with the same predicate.
 */
const listed = sql`${c.visibility} = 'public' and ${c.deletedAt} is null and ${c.moderationStatus} <> 'fix_required' and not ${c.isUnderage}`;

/**
 * Leaves out bots whose creator the viewer blocked (issue 11: hidden from browse, search, tags
 * and creator pages). Reads the blocking feature's table only (decision 010's read-only join).
 */
function notBlockedBy(viewerId: string | null | undefined): SQL | undefined {
  if (!viewerId) return undefined;
  return sql`not exists (select 1 from ${blockedCreators} where ${blockedCreators.userId} = ${viewerId} and ${blockedCreators.creatorUserId} = ${c.creatorUserId})`;
}

export const BROWSE_SORTS: Record<"popular" | "new" | "rating", SortKey[]> = {
  popular: [{ expr: sql`${c.numMessages}`, dir: "desc", type: "integer" }, id("desc")],
  new: [{ expr: sql`${c.createdAt}`, dir: "desc", type: "timestamp" }, id("desc")],
  rating: [{ expr: sql`coalesce(${c.ratingScore}, -1)`, dir: "desc", type: "float" }, id("desc")],
};

const statusRank = sql`case ${c.moderationStatus} when 'fix_required' then 0 when 'rereview_required' then 1 when 'pending' then 1 else 2 end`;
const updatedDesc: SortKey = { expr: sql`${c.updatedAt}`, dir: "desc", type: "timestamp" };

export const OWN_SORTS: Record<"status" | "updated" | "new" | "popular" | "name", SortKey[]> = {
  status: [{ expr: statusRank, dir: "asc", type: "integer" }, updatedDesc, id("desc")],
  updated: [updatedDesc, id("desc")],
  new: BROWSE_SORTS.new,
  popular: BROWSE_SORTS.popular,
  name: [{ expr: sql`lower(${c.name})`, dir: "asc", type: "text" }, id("asc")],
};

/** Case-insensitive match on name or title, or an exact tag. */
function textMatch(q: string): SQL {
  const like = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql`(${c.name} ilike ${like} or ${c.title} ilike ${like} or ${c.tags} @> ${textArray([q.toLowerCase()])})`;
}

function textArray(values: string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

async function cardPage(
  db: Db,
  filters: (SQL | undefined)[],
  keys: SortKey[],
  opts: { limit: number; cursor?: string },
): Promise<CardPage> {
  const after = decodeCursor(opts.cursor, keys);
  const where = and(...filters, after ? afterCursor(keys, after) : undefined);
  const rows = await db
    .select({ character: c, creatorUsername: users.username, cursorKeys: keyValues(keys) })
    .from(c)
    .innerJoin(users, eq(users.id, c.creatorUserId))
    .where(where)
    .orderBy(...orderTerms(keys))
    .limit(opts.limit + 1);
  return page(rows, opts.limit);
}

export interface BrowseOptions {
  q?: string;
  tags: string[];
  nsfw: boolean;
  sort: keyof typeof BROWSE_SORTS;
  limit: number;
  cursor?: string;
  /** The signed-in viewer: their blocked creators' bots are left out. */
  viewerId?: string | null;
}

/** The browse page: listed bots, searched, filtered by all given tags, sorted. */
export function browseCharacters(db: Db, o: BrowseOptions): Promise<CardPage> {
  return cardPage(
    db,
    [
      listed,
      o.nsfw ? undefined : sql`${c.isNsfw} = false`,
      o.q ? textMatch(o.q) : undefined,
      o.tags.length ? sql`${c.tags} @> ${textArray(o.tags)}` : undefined,
      notBlockedBy(o.viewerId),
    ],
    BROWSE_SORTS[o.sort],
    o,
  );
}

export interface OwnOptions {
  q?: string;
  visibility?: Visibility;
  moderation_status?: ModerationStatus;
  sort: keyof typeof OWN_SORTS;
  limit: number;
  cursor?: string;
}

/** My Chatbots: every live bot of the creator, whatever its visibility or review state. */
export function listOwnCharacters(db: Db, userId: string, o: OwnOptions): Promise<CardPage> {
  return cardPage(
    db,
    [
      eq(c.creatorUserId, userId),
      isNull(c.deletedAt),
      o.q ? textMatch(o.q) : undefined,
      o.visibility ? eq(c.visibility, o.visibility) : undefined,
      o.moderation_status ? eq(c.moderationStatus, o.moderation_status) : undefined,
    ],
    OWN_SORTS[o.sort],
    o,
  );
}

const FAVORITE_SORT: SortKey[] = [
  { expr: sql`${favorites.createdAt}`, dir: "desc", type: "timestamp" },
  { expr: sql`${favorites.characterId}`, dir: "desc", type: "uuid" },
];

/** The viewer's favorites, newest first, leaving out bots they can no longer see. */
export async function listFavorites(
  db: Db,
  viewer: { id: string; seesEveryBot: boolean },
  o: { limit: number; cursor?: string },
): Promise<CardPage> {
  const after = decodeCursor(o.cursor, FAVORITE_SORT);
  const visible = viewer.seesEveryBot
    ? undefined
    : sql`(${c.visibility} in ('public', 'hidden') or ${c.creatorUserId} = ${viewer.id})`;
  const rows = await db
    .select({ character: c, creatorUsername: users.username, cursorKeys: keyValues(FAVORITE_SORT) })
    .from(favorites)
    .innerJoin(c, eq(c.id, favorites.characterId))
    .innerJoin(users, eq(users.id, c.creatorUserId))
    .where(
      and(
        eq(favorites.userId, viewer.id),
        isNull(c.deletedAt),
        visible,
        after ? afterCursor(FAVORITE_SORT, after) : undefined,
      ),
    )
    .orderBy(...orderTerms(FAVORITE_SORT))
    .limit(o.limit + 1);
  return page(rows, o.limit);
}

/** A creator page shows their listed bots, most used first; creators with more than this page through search. */
export const CREATOR_PAGE_LIMIT = 120;

/** A creator's listed bots; none when the viewer blocked them. */
export async function listCreatorCharacters(
  db: Db,
  creatorId: string,
  nsfw: boolean,
  viewerId?: string | null,
): Promise<CardRow[]> {
  const { rows } = await cardPage(
    db,
    [
      listed,
      eq(c.creatorUserId, creatorId),
      nsfw ? undefined : sql`${c.isNsfw} = false`,
      notBlockedBy(viewerId),
    ],
    BROWSE_SORTS.popular,
    { limit: CREATOR_PAGE_LIMIT },
  );
  return rows;
}

/** Most used tags over listed bots, for the browse page's chips. */
export async function popularTags(
  db: Db,
  o: { nsfw: boolean; limit: number; viewerId?: string | null },
): Promise<{ tag: string; count: number }[]> {
  const blocked = notBlockedBy(o.viewerId);
  const result = await db.execute<{ tag: string; count: number }>(sql`
    select t.tag, count(*)::int as count
    from ${c}, unnest(${c.tags}) as t(tag)
    where ${listed} ${o.nsfw ? sql`` : sql`and ${c.isNsfw} = false`} ${blocked ? sql`and ${blocked}` : sql``}
    group by t.tag
    order by count desc, t.tag asc
    limit ${o.limit}`);
  return result.rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/** Live characters by id, for other features' lists (their cards come from `toCard`). */
export async function findCardRows(db: Db, characterIds: string[]): Promise<CardRow[]> {
  if (characterIds.length === 0) return [];
  return db
    .select({ character: c, creatorUsername: users.username, cursorKeys: sql<CursorValue[]>`'[]'::json` })
    .from(c)
    .innerJoin(users, eq(users.id, c.creatorUserId))
    .where(and(inArray(c.id, characterIds), isNull(c.deletedAt)));
}

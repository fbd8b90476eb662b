import {
  LEADERBOARD_CACHE_SECONDS,
  LEADERBOARD_PAGE_SIZE,
  type LeaderboardPage,
  leaderboardEndpoints,
} from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { route } from "../../http/route.ts";
import { availableMonths, monthEntries } from "./queries.ts";

/** Answers kept in memory for the spec's 2 minutes (accounts-billing-admin §7, §9). */
export class LeaderboardCache {
  private entries = new Map<string, { at: number; page: LeaderboardPage }>();
  constructor(private ttlMs = LEADERBOARD_CACHE_SECONDS * 1000) {}
  get(key: string, now = Date.now()): LeaderboardPage | undefined {
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.page;
    this.entries.delete(key);
    return undefined;
  }
  set(key: string, page: LeaderboardPage, now = Date.now()) {
    this.entries.set(key, { at: now, page });
  }
  /** After the job stored new tables this process answers from them at once. */
  clear() {
    this.entries.clear();
  }
}

/**
 * GET /api/leaderboard: served from leaderboard_entries as the job left them, never computed
 * here. A date that is not an available month means the newest (§4 "Leaderboard date").
 */
export async function leaderboardRoutes(
  app: FastifyInstance,
  { db, cache }: { db: Db; cache: LeaderboardCache },
) {
  route(app, leaderboardEndpoints.get, async ({ query, reply }) => {
    const key = `${query.type}|${query.date ?? ""}|${query.page}`;
    let page = cache.get(key);
    if (!page) {
      const dates = await availableMonths(db);
      const date = query.date && dates.includes(query.date) ? query.date : (dates[0] ?? null);
      const { rows, total } = date
        ? await monthEntries(db, date, query.type, {
            offset: (query.page - 1) * LEADERBOARD_PAGE_SIZE,
            limit: LEADERBOARD_PAGE_SIZE,
          })
        : { rows: [], total: 0 };
      page = {
        type: query.type,
        date,
        dates,
        hits: rows.map(({ entry, username, image }) => ({
          id: `${entry.month}:${entry.category}:${entry.creatorUserId}`,
          date: entry.month,
          type: entry.category,
          rank: entry.rank,
          creator_user_id: entry.creatorUserId,
          creator_username: username,
          number_of_characters: entry.numberOfCharacters,
          score: entry.score,
          movement: entry.movement,
          avatar_url: image,
        })),
        page: query.page,
        pages: Math.max(1, Math.ceil(total / LEADERBOARD_PAGE_SIZE)),
        total,
        computed_at: rows.reduce<string | null>(
          (latest, r) =>
            latest && latest > r.entry.computedAt.toISOString() ? latest : r.entry.computedAt.toISOString(),
          null,
        ),
      };
      cache.set(key, page);
    }
    void reply.header("cache-control", `public, max-age=${LEADERBOARD_CACHE_SECONDS}`);
    return page;
  });
}

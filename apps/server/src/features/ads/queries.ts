import type { AdDefinition } from "@hearth/contract";
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { characters } from "../characters/schema.ts";
import { conversations, messages } from "../chats/schema.ts";
import { type AdRow, adDailyStats, ads, productEvents } from "./schema.ts";

/** The ads feature's reads and writes (house ads, their daily figures, product events, a chat's context). */

type AdInput = Required<{ [K in keyof AdDefinition]: Exclude<AdDefinition[K], undefined> }>;

const columnsOf = (d: AdInput) => ({
  name: d.name,
  text: d.text,
  imageUrl: d.image_url,
  linkUrl: d.link_url,
  advertiser: d.advertiser,
  tags: d.tags,
  nsfw: d.nsfw,
  active: d.active,
});

export async function insertAd(db: Db, d: AdInput): Promise<AdRow> {
  const [row] = await db.insert(ads).values(columnsOf(d)).returning();
  if (!row) throw new Error("insert returned nothing");
  return row;
}

export async function updateAd(db: Db, id: string, d: AdInput): Promise<AdRow | null> {
  const [row] = await db
    .update(ads)
    .set({ ...columnsOf(d), updatedAt: new Date() })
    .where(eq(ads.id, id))
    .returning();
  return row ?? null;
}

/** Deletes an ad and its daily figures in one transaction; false when there was none. */
export async function deleteAd(db: Db, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(ads).where(eq(ads.id, id)).returning({ id: ads.id });
    await tx.delete(adDailyStats).where(eq(adDailyStats.adId, id));
    return gone.length > 0;
  });
}

/** Every house ad, newest first, with its total views and clicks. */
export async function listAdsWithTotals(db: Db) {
  return db
    .select({
      ad: ads,
      views: sql<number>`coalesce(sum(${adDailyStats.views}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${adDailyStats.clicks}), 0)::int`,
    })
    .from(ads)
    .leftJoin(adDailyStats, eq(adDailyStats.adId, sql`${ads.id}::text`))
    .groupBy(ads.id)
    .orderBy(desc(ads.createdAt));
}

export async function adTotals(db: Db, adId: string) {
  const [row] = await db
    .select({
      views: sql<number>`coalesce(sum(${adDailyStats.views}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${adDailyStats.clicks}), 0)::int`,
    })
    .from(adDailyStats)
    .where(eq(adDailyStats.adId, adId));
  return row ?? { views: 0, clicks: 0 };
}

export async function findAd(db: Db, id: string): Promise<AdRow | null> {
  const [row] = await db.select().from(ads).where(eq(ads.id, id));
  return row ?? null;
}

/** An ad's figures by UTC day from `since` (YYYY-MM-DD) on, newest first. */
export async function dailyStats(db: Db, adId: string, since: string) {
  return db
    .select({ day: adDailyStats.day, views: adDailyStats.views, clicks: adDailyStats.clicks })
    .from(adDailyStats)
    .where(and(eq(adDailyStats.adId, adId), gte(adDailyStats.day, since)))
    .orderBy(desc(adDailyStats.day));
}

/**
 * A house ad for a bot: active, its NSFW rule fitting the bot, and either untargeted or sharing
 * a tag with it. Among those fitting, one at random, so every ad gets its turn.
 */
export async function pickHouseAd(db: Db, bot: { tags: string[]; isNsfw: boolean }): Promise<AdRow | null> {
  const tags = bot.tags.map((t) => t.toLowerCase());
  const [row] = await db
    .select()
    .from(ads)
    .where(
      and(
        eq(ads.active, true),
        bot.isNsfw ? sql`${ads.nsfw} in ('nsfw', 'any')` : sql`${ads.nsfw} in ('sfw', 'any')`,
        sql`(cardinality(${ads.tags}) = 0 or exists (select 1 from unnest(${ads.tags}) t where lower(t) = any(${sql.param(tags)}::text[])))`,
      ),
    )
    .orderBy(sql`random()`)
    .limit(1);
  return row ?? null;
}

/** The member's own, live chat with its bot's fields, or null. */
export async function ownedChat(db: Db, conversationId: string, userId: string) {
  const [row] = await db
    .select({
      messageCount: conversations.messageCount,
      character: {
        id: characters.id,
        name: characters.name,
        title: characters.title,
        tags: characters.tags,
        isNsfw: characters.isNsfw,
        language: characters.language,
      },
    })
    .from(conversations)
    .innerJoin(characters, eq(characters.id, conversations.characterId))
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)));
  return row ?? null;
}

/** The chat's last `n` complete messages, oldest first (what an ad network may be sent). */
export async function lastMessages(db: Db, conversationId: string, n: number) {
  const rows = await db
    .select({ role: messages.role, content: messages.content })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.state, "complete")))
    .orderBy(desc(messages.seq))
    .limit(n);
  return rows.reverse();
}

export interface ProductEventRow {
  userId: string;
  eventName: string;
  action: string | null;
  characterId: string | null;
  conversationId: string | null;
  messageId: string | null;
  detail: string | null;
}

export async function insertEvent(db: Db, event: ProductEventRow) {
  await db.insert(productEvents).values(event);
}

/** Counts a view or click of an ad on today's (UTC) row, and keeps the event, in one transaction. */
export async function countAdEvent(
  db: Db,
  kind: "view" | "click",
  event: ProductEventRow & { adId: string },
) {
  const { adId, ...row } = event;
  await db.transaction(async (tx) => {
    await tx.insert(productEvents).values(row);
    await tx
      .insert(adDailyStats)
      .values({
        adId,
        day: sql`(now() at time zone 'utc')::date`,
        views: kind === "view" ? 1 : 0,
        clicks: kind === "click" ? 1 : 0,
      })
      .onConflictDoUpdate({
        target: [adDailyStats.adId, adDailyStats.day],
        set:
          kind === "view"
            ? { views: sql`${adDailyStats.views} + 1` }
            : { clicks: sql`${adDailyStats.clicks} + 1` },
      });
  });
}

/** Deletes product events older than the retention; answers how many went. */
export async function deleteEventsBefore(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(productEvents)
    .where(lt(productEvents.createdAt, before))
    .returning({ id: productEvents.id });
  return gone.length;
}

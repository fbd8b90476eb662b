import { createHmac } from "node:crypto";
import { type AdminAd, adEndpoints, adSlotAfter } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { AdSource } from "../../ports/ads.ts";
import { type Auth, assertNotRestricted, getViewer } from "../accounts/index.ts";
import { assertCanManageAds, mayShowAds } from "./policy.ts";
import {
  adTotals,
  dailyStats,
  deleteAd,
  findAd,
  insertAd,
  lastMessages,
  listAdsWithTotals,
  ownedChat,
  updateAd,
} from "./queries.ts";
import type { AdRow } from "./schema.ts";

export interface AdsDeps {
  config: Config;
  db: Db;
  auth: Auth;
  /** The ad source the configuration names (house ads, or the external server); null: none. */
  source: AdSource | null;
}

const ratio = (clicks: number, views: number) =>
  views > 0 ? Math.round((clicks / views) * 10_000) / 10_000 : 0;

function presentAd(row: AdRow, totals: { views: number; clicks: number }): AdminAd {
  return {
    id: row.id,
    name: row.name,
    text: row.text,
    image_url: row.imageUrl,
    link_url: row.linkUrl,
    advertiser: row.advertiser,
    tags: row.tags,
    nsfw: row.nsfw as AdminAd["nsfw"],
    active: row.active,
    created_at: row.createdAt.toISOString(),
    views: totals.views,
    clicks: totals.clicks,
    ctr: ratio(totals.clicks, totals.views),
  };
}

/** A salted hash of a member's id: stable per member and install, never reversible to the id. */
export const userHashOf = (secret: string, userId: string) =>
  createHmac("sha256", secret).update(`hearth:ads:user:${userId}`).digest("hex");

/** Ad slots in chat and the house ads of Admin → Ads (issue 17 items 1-3). */
export async function adRoutes(app: FastifyInstance, { config, db, auth, source }: AdsDeps) {
  const rules = { min_messages: config.product.ads.minMessages, interval: config.product.ads.interval };

  route(app, adEndpoints.slot, async ({ req, query }) => {
    const viewer = await getViewer(auth, req);
    if (viewer) assertNotRestricted(viewer);
    if (!source || !viewer || !mayShowAds(viewer, config) || !adSlotAfter(query.after, rules)) {
      return { ad: null };
    }
    const chat = await ownedChat(db, query.conversation_id, viewer.id);
    if (!chat || query.after > chat.messageCount) return { ad: null };
    const served = await source.pick({
      conversationId: query.conversation_id,
      after: query.after,
      character: chat.character,
      context: async () => ({
        messages: await lastMessages(db, query.conversation_id, 10),
        character: chat.character,
        userHash: userHashOf(config.secret, viewer.id),
      }),
    });
    if (!served) return { ad: null };
    return {
      ad: {
        id: served.id,
        code: served.code,
        text: served.text,
        image_url: served.imageUrl,
        link_url: served.linkUrl,
        advertiser: served.advertiser,
      },
    };
  });

  // Admin → Ads: every route below is the administrators'.
  const admin = async (req: Parameters<typeof getViewer>[1]) =>
    assertCanManageAds(await getViewer(auth, req));

  route(app, adEndpoints.list, async ({ req }) => {
    await admin(req);
    const rows = await listAdsWithTotals(db);
    const provider = config.edition === "partner" ? "off" : config.product.ads.provider;
    return { provider, ads: rows.map((r) => presentAd(r.ad, r)) };
  });

  route(app, adEndpoints.create, async ({ req, body }) => {
    await admin(req);
    return presentAd(await insertAd(db, body), { views: 0, clicks: 0 });
  });

  route(app, adEndpoints.update, async ({ req, params, body }) => {
    await admin(req);
    const row = await updateAd(db, params.id, body);
    if (!row) throw notFound("No such ad.");
    return presentAd(row, await adTotals(db, row.id));
  });

  route(app, adEndpoints.remove, async ({ req, params }) => {
    await admin(req);
    if (!(await deleteAd(db, params.id))) throw notFound("No such ad.");
  });

  route(app, adEndpoints.stats, async ({ req, params, query }) => {
    await admin(req);
    if (!(await findAd(db, params.id))) throw notFound("No such ad.");
    const since = new Date(Date.now() - (query.days - 1) * 86_400_000).toISOString().slice(0, 10);
    const days = await dailyStats(db, params.id, since);
    return {
      ad_id: params.id,
      days: days.map((d) => ({
        day: d.day,
        views: d.views,
        clicks: d.clicks,
        ctr: ratio(d.clicks, d.views),
      })),
    };
  });
}

import { adDefinition, adminAd, adminAdList, adSlot, adSlotQuery, adStats, adStatsQuery } from "../ads.ts";
import { appSettings } from "../app-settings.ts";
import { endpoint, idParams } from "../endpoint.ts";

/** App settings, ads in chat and the operator's house ads (apps/server/src/features/ads, issue 17). */
export const adEndpoints = {
  appSettings: endpoint({
    method: "GET",
    path: "/api/app-settings",
    summary:
      "What the client loads at start: brand, edition, feature flags, and the limits and constants it shows (notifications, ads, waiting room)",
    tag: "Site",
    access: "anyone",
    response: appSettings,
  }),
  slot: endpoint({
    method: "GET",
    path: "/api/ads/slot",
    summary:
      "The ad for the slot after a chat's N-th message: null unless the member has display_ads, this is not partner mode, the chat is past the threshold and N is a slot",
    tag: "Ads",
    access: "member",
    query: adSlotQuery,
    response: adSlot,
  }),
  list: endpoint({
    method: "GET",
    path: "/api/admin/ads",
    summary:
      "The house ads with their views, clicks and click-through rate, and which ad source serves chats",
    tag: "Admin: ads",
    access: "admin",
    response: adminAdList,
  }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/ads",
    summary: "Define a house ad: text, image, link, targeting by tag and NSFW",
    tag: "Admin: ads",
    access: "admin",
    body: adDefinition,
    response: adminAd,
    status: 201,
  }),
  update: endpoint({
    method: "PUT",
    path: "/api/admin/ads/{id}",
    summary: "Replace a house ad's definition",
    tag: "Admin: ads",
    access: "admin",
    params: idParams,
    body: adDefinition,
    response: adminAd,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/ads/{id}",
    summary: "Delete a house ad (its daily figures go with it)",
    tag: "Admin: ads",
    access: "admin",
    params: idParams,
    response: null,
  }),
  stats: endpoint({
    method: "GET",
    path: "/api/admin/ads/{id}/stats",
    summary: "An ad's views, clicks and click-through rate by day (UTC), newest first",
    tag: "Admin: ads",
    access: "admin",
    params: idParams,
    query: adStatsQuery,
    response: adStats,
  }),
};

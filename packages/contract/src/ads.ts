import { z } from "zod";
import { queryInt32 } from "./integers.ts";

/** Ads in chat and product events (issue 17; chat-and-characters §6 display_ads, §7, §9). */

const uuid = z.uuid();
const httpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), "Use an http or https address.");
const adTag = z.string().trim().min(1).max(40);

/** One ad as the chat shows it. `code` names where it came from (the house or the network's creative). */
export const ad = z.object({
  id: z.string(),
  code: z.string(),
  text: z.string(),
  image_url: z.string().nullable(),
  link_url: z.string(),
  /** Who pays for it, shown beside the "Sponsored" label; null shows the label alone. */
  advertiser: z.string().nullable(),
});
export type Ad = z.infer<typeof ad>;

/** GET /api/ads/slot: the ad for the slot after a chat's `after`-th message. */
export const adSlotQuery = z.object({
  conversation_id: uuid,
  /** The slot follows this many messages of the chat (1-based count). */
  after: queryInt32(1, 1_000_000),
});
export const adSlot = z.object({ ad: ad.nullable() });
export type AdSlot = z.infer<typeof adSlot>;

/** Whether a chat of `count` messages has an ad slot after its `count`-th message. */
export function adSlotAfter(count: number, rules: { min_messages: number; interval: number }): boolean {
  if (count <= Math.max(2, rules.min_messages)) return false;
  const first = Math.max(2, rules.min_messages) + 1;
  return (count - first) % Math.max(1, rules.interval) === 0;
}

/** An operator's house ad (Admin → Ads). */
export const adDefinition = z.object({
  name: z.string().trim().min(1).max(80),
  text: z.string().trim().min(1).max(280),
  image_url: httpUrl.nullable().default(null),
  link_url: httpUrl,
  advertiser: z.string().trim().min(1).max(60).nullable().default(null),
  /** Shown only in chats with bots carrying one of these tags; empty: any bot. */
  tags: z.array(adTag).max(20).default([]),
  /** `sfw`: only beside bots that are not NSFW; `nsfw`: only beside NSFW bots; `any`: both. */
  nsfw: z.enum(["sfw", "nsfw", "any"]).default("sfw"),
  active: z.boolean().default(true),
});
export type AdDefinition = z.input<typeof adDefinition>;

export const adDayStats = z.object({
  day: z.string(),
  views: z.number().int(),
  clicks: z.number().int(),
  /** clicks / views, 0 when there were no views. */
  ctr: z.number(),
});
export type AdDayStats = z.infer<typeof adDayStats>;

export const adminAd = z.object({
  id: z.string(),
  name: z.string(),
  text: z.string(),
  image_url: z.string().nullable(),
  link_url: z.string(),
  advertiser: z.string().nullable(),
  tags: z.array(z.string()),
  nsfw: z.enum(["sfw", "nsfw", "any"]),
  active: z.boolean(),
  created_at: z.string(),
  views: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
});
export type AdminAd = z.infer<typeof adminAd>;

export const adminAdList = z.object({
  /** Which ad source serves chats: house ads, an external ad server, or none. */
  provider: z.enum(["house", "external", "off"]),
  ads: z.array(adminAd),
});
export type AdminAdList = z.infer<typeof adminAdList>;

export const adStatsQuery = z.object({ days: queryInt32(1, 365).default(30) });
export const adStats = z.object({ ad_id: z.string(), days: z.array(adDayStats) });
export type AdStats = z.infer<typeof adStats>;

// --- POST /api/event: ad reporting and chat-UI events -----------------------------------------

const adEventFields = {
  ad_id: z.string().min(1).max(100),
  code: z.string().min(1).max(100),
  message_id: uuid,
  /** The ad's text as it was shown. */
  content: z.string().max(1000).default(""),
  character_id: uuid,
  conversation_id: uuid,
};
export const adViewEvent = z.object({ event_name: z.literal("adView"), ...adEventFields });
export const adClickEvent = z.object({ event_name: z.literal("adClick"), ...adEventFields });

export const CHAT_UI_ACTIONS = [
  "open_chat",
  "send",
  "regenerate",
  "continue",
  "stop",
  "suggest",
  "error_shown",
] as const;
export const chatUiAction = z.enum(CHAT_UI_ACTIONS);
export type ChatUiAction = z.infer<typeof chatUiAction>;

/** A chat-screen action, for the operator's product analytics (off in partner mode). */
export const chatUiEvent = z.object({
  event_name: z.literal("chatUi"),
  action: chatUiAction,
  character_id: uuid.nullable().default(null),
  conversation_id: uuid.nullable().default(null),
  /** For error_shown: the error's code. */
  detail: z
    .string()
    .max(100)
    .regex(/^[\w .:-]*$/)
    .nullable()
    .default(null),
});
export type ChatUiEvent = z.input<typeof chatUiEvent>;

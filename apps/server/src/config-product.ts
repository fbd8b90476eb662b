import { QUEUE_ACCESS_IDLE_S, QUEUE_RETRY_AFTER_S, QUEUE_TIME_SHOWN_FROM_S } from "@hearth/contract";
import { z } from "zod";

/**
 * The product's switches and constants (issue 17): feature flags and the limits the client shows
 * (served by GET /api/app-settings), ads in chat, and product events. config.ts spreads these
 * variables into its schema; README.md documents them.
 */
export const productEnv = {
  /** The newer two-column chatbot profile (chat-and-characters §2). */
  HEARTH_FLAG_NEW_PROFILE: z.stringbool().default(false),
  /** The second chat-page layout; false keeps the older one (chat-and-characters §2). */
  HEARTH_FLAG_CHAT_LAYOUT_V2: z.stringbool().default(true),
  /** Onboarding v2: the welcome steps check usernames by accounts-billing-admin §5 as they are typed. */
  HEARTH_FLAG_ONBOARDING_V2: z.stringbool().default(true),
  /** How long a notification stays on screen, in milliseconds. */
  HEARTH_NOTIFICATION_MS: z.coerce.number().int().min(500).max(60_000).default(4000),
  /** Where ads in chat come from: the operator's house ads, an external ad server, or none. */
  HEARTH_ADS: z.enum(["house", "external", "off"]).default("house"),
  /** An ad appears once a chat has more than this many messages (and always more than 2). */
  HEARTH_ADS_MIN_MESSAGES: z.coerce.number().int().min(0).max(100_000).default(10),
  /** Messages between two ads in one chat. */
  HEARTH_ADS_INTERVAL: z.coerce.number().int().min(1).max(100_000).default(10),
  /** The external ad server's bid address (HEARTH_ADS=external): an OpenRTB-style JSON POST. */
  HEARTH_ADS_URL: z.url().optional(),
  /** Origins ad images may be loaded from (comma-separated, e.g. `https://cdn.ads.example`); the CSP allows them. */
  HEARTH_ADS_IMAGE_ORIGINS: z.string().default(""),
  /** How long the chat waits for the external ad server before showing no ad. */
  HEARTH_ADS_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(800),
  /** Chat-UI events (open, send, regenerate…) are kept for product analytics; partner mode never. */
  HEARTH_ANALYTICS: z.stringbool().default(true),
  /** Days product events (ad views and clicks, chat-UI events) are kept; daily ad figures stay. */
  HEARTH_EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** The waiting room: how long a member waits before asking again (its answers' retry_after). */
  HEARTH_WAITING_RETRY_AFTER_S: z.coerce.number().int().min(5).max(600).default(QUEUE_RETRY_AFTER_S),
  /** The waiting room: idle seconds after which a member's access lapses (20 minutes). */
  HEARTH_WAITING_ACCESS_IDLE_S: z.coerce.number().int().min(60).max(86_400).default(QUEUE_ACCESS_IDLE_S),
  /** The waiting room's banner shows "Estimated Time Left" once the estimate reaches this. */
  HEARTH_WAITING_TIME_SHOWN_FROM_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(QUEUE_TIME_SHOWN_FROM_S),
  /** Ad and chat-UI events one account may send a minute; more are dropped with 429. */
  HEARTH_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
};

type ProductEnv = z.output<z.ZodObject<typeof productEnv>>;

export interface ProductConfig {
  flags: { newProfile: boolean; chatLayoutV2: boolean; onboardingV2: boolean };
  notificationMs: number;
  ads: {
    provider: "house" | "external" | "off";
    minMessages: number;
    interval: number;
    /** Origins ad images may come from (the Content-Security-Policy's img-src). */
    imageOrigins: string[];
    /** The external ad server; null unless HEARTH_ADS=external. */
    external: { url: string; timeoutMs: number } | null;
  };
  events: { analytics: boolean; retentionDays: number; perMinute: number };
  waitingRoom: WaitingRoomTiming;
}

/** The waiting room's times (accounts-billing-admin § Queue state), in seconds. */
export interface WaitingRoomTiming {
  retryAfterS: number;
  accessIdleS: number;
  timeShownFromS: number;
}

/** Builds the product settings; answers an error's text when they do not fit together. */
export function productConfig(e: ProductEnv): ProductConfig | string {
  if (e.HEARTH_ADS === "external" && !e.HEARTH_ADS_URL) {
    return "HEARTH_ADS=external needs HEARTH_ADS_URL (the ad server's address)";
  }
  const imageOrigins: string[] = [];
  for (const given of e.HEARTH_ADS_IMAGE_ORIGINS.split(",")
    .map((o) => o.trim())
    .filter(Boolean)) {
    const url = URL.parse(given);
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
      return `HEARTH_ADS_IMAGE_ORIGINS: "${given}" is not an http(s) origin`;
    }
    imageOrigins.push(url.origin);
  }
  return {
    flags: {
      newProfile: e.HEARTH_FLAG_NEW_PROFILE,
      chatLayoutV2: e.HEARTH_FLAG_CHAT_LAYOUT_V2,
      onboardingV2: e.HEARTH_FLAG_ONBOARDING_V2,
    },
    waitingRoom: {
      retryAfterS: e.HEARTH_WAITING_RETRY_AFTER_S,
      accessIdleS: e.HEARTH_WAITING_ACCESS_IDLE_S,
      timeShownFromS: e.HEARTH_WAITING_TIME_SHOWN_FROM_S,
    },
    notificationMs: e.HEARTH_NOTIFICATION_MS,
    ads: {
      provider: e.HEARTH_ADS,
      minMessages: e.HEARTH_ADS_MIN_MESSAGES,
      interval: e.HEARTH_ADS_INTERVAL,
      imageOrigins,
      external:
        e.HEARTH_ADS === "external" && e.HEARTH_ADS_URL
          ? { url: e.HEARTH_ADS_URL, timeoutMs: e.HEARTH_ADS_TIMEOUT_MS }
          : null,
    },
    events: {
      analytics: e.HEARTH_ANALYTICS,
      retentionDays: e.HEARTH_EVENTS_RETENTION_DAYS,
      perMinute: e.HEARTH_EVENTS_PER_MINUTE,
    },
  };
}

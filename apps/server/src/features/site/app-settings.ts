import {
  type AppSettings,
  CONVERSATION_PAGE_SIZE,
  MAX_TAGS,
  QUEUE_ACCESS_IDLE_S,
  QUEUE_RETRY_AFTER_S,
  QUEUE_TIME_SHOWN_FROM_S,
  TITLE_MAX,
} from "@hearth/contract";
import type { Config } from "../../config.ts";
import { adsOnSite, analyticsOnSite } from "../ads/index.ts";

/**
 * GET /api/app-settings (issue 17 item 4): the flags and constants the client loads at start,
 * all from configuration (config-product.ts), so an operator changes them without code.
 */
export function appSettingsOf(config: Config): AppSettings {
  const p = config.product;
  return {
    brand: { name: config.brand.name, accent: config.brand.accent, logo_url: config.site.logoUrl },
    edition: config.edition,
    partner: config.edition === "partner",
    flags: {
      new_profile: p.flags.newProfile,
      chat_layout_v2: p.flags.chatLayoutV2,
      profile_v2: config.profile.layout === "v2",
      onboarding_v2: p.flags.onboardingV2,
    },
    limits: {
      notification_ms: p.notificationMs,
      ads: { enabled: adsOnSite(config), min_messages: p.ads.minMessages, interval: p.ads.interval },
      waiting_room: {
        time_shown_from_s: QUEUE_TIME_SHOWN_FROM_S,
        retry_after_s: QUEUE_RETRY_AFTER_S,
        access_idle_s: QUEUE_ACCESS_IDLE_S,
      },
      max_tags: MAX_TAGS,
      title_max: TITLE_MAX,
      conversation_page_size: CONVERSATION_PAGE_SIZE,
    },
    analytics: analyticsOnSite(config),
  };
}

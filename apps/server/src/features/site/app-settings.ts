import { type AppSettings, CONVERSATION_PAGE_SIZE, MAX_TAGS, TITLE_MAX } from "@hearth/contract";
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
        time_shown_from_s: p.waitingRoom.timeShownFromS,
        retry_after_s: p.waitingRoom.retryAfterS,
        access_idle_s: p.waitingRoom.accessIdleS,
      },
      max_tags: MAX_TAGS,
      title_max: TITLE_MAX,
      conversation_page_size: CONVERSATION_PAGE_SIZE,
    },
    analytics: analyticsOnSite(config),
  };
}

/**
 * The privacy page's section on ads and product events, generated from the settings in force
 * (issue 17 item 2), appended to the privacy page whether it is Hearth's or the operator's file.
 */
export function privacyNotice(config: Config): string {
  const p = config.product;
  const lines = ["", "## Ads and product analytics", ""];
  if (!adsOnSite(config)) {
    lines.push("This site shows no ads.");
  } else if (p.ads.provider === "external") {
    lines.push(
      `Free members see ads in their chats after more than ${p.ads.minMessages} messages. They come from an ` +
        "external ad server, which for each ad is sent the last 10 messages of the chat, the character's name, " +
        "title, tags, language and NSFW flag, and a salted hash of your account id (never the id itself, your " +
        "name or your e-mail). Subscribers see no ads, and nothing of their chats is sent.",
    );
  } else {
    lines.push(
      `Free members see ads in their chats after more than ${p.ads.minMessages} messages. The ads are this ` +
        "site's own, chosen on this server by the character's tags; nothing about your chats is sent to anyone " +
        "for them. Subscribers see no ads.",
    );
  }
  lines.push("");
  lines.push(
    analyticsOnSite(config)
      ? `This site keeps a record of actions in the chat screen (opening a chat, sending, regenerating, errors shown) and of ads viewed and clicked, to improve the product. The record is kept for ${p.events.retentionDays} days and is deleted with your account.`
      : `This site keeps no record of actions in the chat screen.${adsOnSite(config) ? ` Ads viewed and clicked are counted for ${p.events.retentionDays} days.` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

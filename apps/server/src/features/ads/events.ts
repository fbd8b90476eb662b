import type { AppEvent } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { Viewer } from "../accounts/index.ts";
import { type AdSite, analyticsOnSite, assertCanSendEvents } from "./policy.ts";
import { countAdEvent, insertEvent } from "./queries.ts";

/**
 * The ads feature's kinds of `POST /api/event` (issue 17 item 3): ad view and ad click (counted
 * per ad and day for Admin → Ads) and chat-UI events (kept for product analytics, not in partner
 * mode). The ratings feature's dispatch hands them here. Each account may send
 * HEARTH_EVENTS_PER_MINUTE of them a minute, counted in this process; more answer 429 and are not
 * kept. The web sends them without waiting for the answer, so they never hold up the chat.
 */

export type AdEvent = Extract<AppEvent, { event_name: "adView" | "adClick" | "chatUi" }>;
export const AD_EVENT_NAMES = ["adView", "adClick", "chatUi"] as const;

/** A fixed one-minute window per account. Old windows are swept as new ones open. */
export class EventAllowance {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(userId: string): boolean {
    const now = this.now();
    const w = this.windows.get(userId);
    if (!w || now - w.start >= 60_000) {
      if (this.windows.size > 10_000) this.sweep(now);
      this.windows.set(userId, { start: now, count: 1 });
      return true;
    }
    if (w.count >= this.perMinute) return false;
    w.count++;
    return true;
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(key);
  }
}

const tooMany = () => new HttpError(429, "rateLimited", "Too many events; slow down.");

export function adEventHandler(db: Db, site: AdSite, allowance: EventAllowance) {
  return async (viewer: Viewer | null, event: AdEvent): Promise<void> => {
    const v = assertCanSendEvents(viewer);
    if (event.event_name === "chatUi" && !analyticsOnSite(site)) return;
    if (!allowance.take(v.id)) throw tooMany();
    if (event.event_name === "chatUi") {
      await insertEvent(db, {
        userId: v.id,
        eventName: "chatUi",
        action: event.action,
        characterId: event.character_id,
        conversationId: event.conversation_id,
        messageId: null,
        detail: event.detail,
      });
      return;
    }
    await countAdEvent(db, event.event_name === "adView" ? "view" : "click", {
      adId: event.ad_id,
      userId: v.id,
      eventName: event.event_name,
      action: event.ad_id,
      characterId: event.character_id,
      conversationId: event.conversation_id,
      messageId: event.message_id,
      detail: `${event.code}: ${event.content}`.slice(0, 1100),
    });
  };
}

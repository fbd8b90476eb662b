import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { AdRequest, AdSource, ServedAd } from "../ports/ads.ts";

/**
 * An external ad server over HTTP (HEARTH_ADS=external, off by default): one OpenRTB-style bid
 * request per ad slot, a JSON POST to HEARTH_ADS_URL carrying what chat-and-characters §7 says an
 * ad network receives, and nothing else: the last 10 messages, the character's fields and a
 * salted hash of the member's id (`user.id`). An answer of 204, a refusal, malformed JSON or a
 * late answer (HEARTH_ADS_TIMEOUT_MS) is no ad.
 */

const bid = z.object({
  id: z.string().max(200),
  crid: z.string().min(1).max(100).optional(),
  adomain: z.array(z.string().max(200)).max(10).optional(),
  ext: z.object({
    text: z.string().min(1).max(1000),
    link_url: z.url({ protocol: /^https?$/ }).max(2000),
    image_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .nullable()
      .optional(),
    advertiser: z.string().max(100).nullable().optional(),
  }),
});
const bidResponse = z.object({
  seatbid: z.array(z.object({ seat: z.string().max(100).optional(), bid: z.array(bid).min(1) })).min(1),
});

export interface OpenRtbOptions {
  url: string;
  timeoutMs: number;
  /** The site's name, sent as `site.name`. */
  siteName: string;
  fetch?: typeof fetch;
}

export class OpenRtbAdSource implements AdSource {
  readonly kind = "external";
  constructor(private readonly options: OpenRtbOptions) {}

  async pick(request: AdRequest): Promise<ServedAd | null> {
    const doFetch = this.options.fetch ?? fetch;
    try {
      const context = await request.context();
      const body = {
        id: randomUUID(),
        imp: [{ id: "1", tagid: `chat-after-${request.after}`, native: { ver: "1.2" } }],
        site: { name: this.options.siteName, cat: context.character.tags },
        user: { id: context.userHash },
        regs: { ext: { nsfw: context.character.isNsfw ? 1 : 0 } },
        ext: {
          hearth: {
            conversation: { messages: context.messages.slice(-10) },
            character: {
              id: context.character.id,
              name: context.character.name,
              title: context.character.title,
              tags: context.character.tags,
              is_nsfw: context.character.isNsfw,
              language: context.character.language,
            },
          },
        },
      };
      const res = await doFetch(this.options.url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-openrtb-version": "2.6" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (res.status !== 200) return null;
      const parsed = bidResponse.safeParse(await res.json());
      if (!parsed.success) return null;
      const seat = parsed.data.seatbid[0];
      const first = seat?.bid[0];
      if (!seat || !first) return null;
      return {
        id: first.crid ?? first.id,
        code: seat.seat ?? "external",
        text: first.ext.text,
        imageUrl: first.ext.image_url ?? null,
        linkUrl: first.ext.link_url,
        advertiser: first.ext.advertiser ?? first.adomain?.[0] ?? null,
      };
    } catch {
      return null;
    }
  }
}

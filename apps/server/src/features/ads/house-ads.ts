import type { Db } from "../../db/client.ts";
import type { AdRequest, AdSource, ServedAd } from "../../ports/ads.ts";
import { pickHouseAd } from "./queries.ts";

/**
 * The default ad source: the operator's own ads from Admin → Ads, chosen in Hearth's database by
 * the bot's tags and NSFW flag. Nothing about the chat leaves the server (the request's context
 * is never read).
 */
export class HouseAdSource implements AdSource {
  readonly kind = "house";
  constructor(private readonly db: Db) {}

  async pick(request: AdRequest): Promise<ServedAd | null> {
    const row = await pickHouseAd(this.db, request.character).catch(() => null);
    if (!row) return null;
    return {
      id: row.id,
      code: "house",
      text: row.text,
      imageUrl: row.imageUrl,
      linkUrl: row.linkUrl,
      advertiser: row.advertiser,
    };
  }
}

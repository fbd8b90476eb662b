// The ads feature (issue 17): ad slots in chat from the AdSource the configuration names, the
// operator's house ads (Admin → Ads) and their daily figures, and the ad and chat-UI kinds of
// `POST /api/event` (whose dispatch lives in the ratings feature), with their retention.
import type { FastifyInstance } from "fastify";
import { OpenRtbAdSource } from "../../adapters/openrtb-ads.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { AdSource } from "../../ports/ads.ts";
import type { Auth, Viewer } from "../accounts/index.ts";
import { type AdEvent, adEventHandler, EventAllowance } from "./events.ts";
import { HouseAdSource } from "./house-ads.ts";
import { adsOnSite } from "./policy.ts";
import { deleteEventsBefore } from "./queries.ts";
import { adRoutes } from "./routes.ts";

export { AD_EVENT_NAMES, type AdEvent } from "./events.ts";
export { adsOnSite, analyticsOnSite } from "./policy.ts";

/** How often old product events are deleted. */
const CLEANUP_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The ad source the configuration names; null where ads are off (or the partner edition). */
export function openAdSource(config: Config, db: Db): AdSource | null {
  if (!adsOnSite(config)) return null;
  const external = config.product.ads.external;
  if (config.product.ads.provider === "external" && external) {
    return new OpenRtbAdSource({
      url: external.url,
      timeoutMs: external.timeoutMs,
      siteName: config.brand.name,
    });
  }
  return new HouseAdSource(db);
}

export interface InstalledAds {
  /** The ads feature's event kinds, for `POST /api/event`'s dispatch. */
  handleEvent: (viewer: Viewer | null, event: AdEvent) => Promise<void>;
  stop: () => void;
}

export async function installAds(
  app: FastifyInstance,
  deps: { config: Config; db: Db; auth: Auth; source?: AdSource | null },
): Promise<InstalledAds> {
  const { config, db } = deps;
  const source = deps.source === undefined ? openAdSource(config, db) : deps.source;
  await app.register(adRoutes, { config, db, auth: deps.auth, source });
  const handleEvent = adEventHandler(db, config, new EventAllowance(config.product.events.perMinute));

  // Retention: events older than HEARTH_EVENTS_RETENTION_DAYS go, at start and every six hours.
  const cleanup = () => {
    const before = new Date(Date.now() - config.product.events.retentionDays * 86_400_000);
    void deleteEventsBefore(db, before)
      .then((n) => n > 0 && app.log.info({ deleted: n }, "old product events deleted"))
      .catch((err) => app.log.error({ err }, "deleting old product events failed"));
  };
  if (config.role !== "api") {
    app.addHook("onReady", async () => cleanup());
  }
  const timer = config.role !== "api" ? setInterval(cleanup, CLEANUP_INTERVAL_MS) : null;
  timer?.unref();
  return { handleEvent, stop: () => timer && clearInterval(timer) };
}

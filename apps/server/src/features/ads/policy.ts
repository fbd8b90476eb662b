import type { Config } from "../../config.ts";
import { unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, assertPermission, type Viewer } from "../accounts/index.ts";

/**
 * Who sees ads, who sends events and who runs the house ads (issue 17; chat-and-characters §1,
 * §6 display_ads). Free members hold display_ads; paid tiers, administrators, guests and limited
 * or restricted accounts do not (accounts' permissions.ts), and partner mode shows none at all.
 */

export type AdSite = Pick<Config, "edition"> & { product: Pick<Config["product"], "ads" | "events"> };

/** Ads may be shown on this site at all: a source is on and this is not the partner edition. */
export const adsOnSite = (site: AdSite) => site.edition !== "partner" && site.product.ads.provider !== "off";

/** Chat-UI events are kept for analytics: the operator left them on and this is not partner mode. */
export const analyticsOnSite = (site: AdSite) => site.edition !== "partner" && site.product.events.analytics;

/** Whether this viewer's chats get ad slots. */
export function mayShowAds(viewer: Viewer | null, site: AdSite): boolean {
  return Boolean(
    viewer && !viewer.impersonatedBy && adsOnSite(site) && viewer.permissions.includes("display_ads"),
  );
}

/** Events come from a signed-in account (a guest included); a restricted one is refused. */
export function assertCanSendEvents(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  return viewer;
}

/** The house ads and their figures are the administrators'. */
export function assertCanManageAds(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  assertPermission(viewer, "admin");
  return viewer;
}

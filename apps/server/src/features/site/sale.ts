import type { Config } from "../../config.ts";
import { type OfferSpec, type SaleSettings, saleIsOn, saleSettingsOf } from "./sale-settings.ts";
import { readSiteFile } from "./settings.ts";

export type { OfferSpec, SaleSettings } from "./sale-settings.ts";

/**
 * The sale as configured (HEARTH_SALE and site.json's `sale`), read once: checkout reads it at
 * start like the site routes do. A broken site.json throws with its reason.
 */
export function readSale(config: Config): SaleSettings {
  return saleSettingsOf(config, readSiteFile(config.dataDir).sale);
}

/**
 * The offer checkout may apply for `offerId` at `now`: the sale must be running and know the
 * offer; null otherwise. Its `amount` replaces the plan's price for the first period only (§9:
 * renewals are at the regular price); checkout must also refuse an offer whose `planId` is not
 * the plan being bought.
 */
export function activeOffer(sale: SaleSettings, offerId: string, now: Date = new Date()): OfferSpec | null {
  if (!saleIsOn(sale, now)) return null;
  return sale.offers.find((offer) => offer.offerId === offerId) ?? null;
}

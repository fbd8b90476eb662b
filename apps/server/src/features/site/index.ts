// The site feature: public configuration, secondary pages, the Easter code and partner mode's
// sign-in routes. The composition root installs it (decision 010).
import type { FastifyInstance } from "fastify";
import { type SiteDeps, siteRoutes } from "./routes.ts";

/** For checkout: the configured sale, and the offer it may apply by offer_id (sale.ts). */
export { activeOffer, type OfferSpec, readSale, type SaleSettings } from "./sale.ts";

export async function installSite(app: FastifyInstance, deps: SiteDeps): Promise<void> {
  await app.register(siteRoutes, deps);
}

// What billing offers the rest of the server (issue 13; decision 012): the plan catalogue,
// subscriptions on Stripe or the manual provider, checkout, and their routes.
import type { FastifyInstance } from "fastify";
import { StripePayments } from "../../adapters/stripe-payments.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { AccountDeletionHook, Auth } from "../accounts/index.ts";
import { checkoutRoutes } from "./checkout-routes.ts";
import { CheckoutService, type OfferLookup } from "./checkout-service.ts";
import type { OtherTier } from "./ledger.ts";
import { readPlanCatalog } from "./plans.ts";
import { billingRoutes } from "./routes.ts";
import { BillingService } from "./service.ts";

export type { OfferLookup, SaleOffer } from "./checkout-service.ts";
export type { PlanCatalog, PlanSpec } from "./plans.ts";

/** How often ended cancelled and grace subscriptions are expired, and card subscriptions re-synced. */
const SWEEP_MS = 10 * 60 * 1000;

/**
 * Reads the plans (a broken plans.json stops the start), registers billing's routes and starts
 * the sweep that ends subscriptions whose paid period is over; answers how to stop it and the
 * account deletion hook that ends a deleted member's subscription.
 */
export async function installBilling(
  app: FastifyInstance,
  deps: { config: Config; db: Db; auth: Auth; offers: OfferLookup; otherTier: OtherTier },
): Promise<{ stop: () => void; onAccountDeletion: AccountDeletionHook }> {
  const { config } = deps;
  const plans = readPlanCatalog(config.dataDir);
  const stripe = config.billing.stripe;
  const card = stripe ? new StripePayments(stripe) : null;
  const billing = new BillingService({ db: deps.db, plans, card, otherTier: deps.otherTier });
  const checkout = new CheckoutService({
    db: deps.db,
    billing,
    card,
    manualInstructions: config.billing.manualInstructions,
    offers: deps.offers,
  });
  await app.register(billingRoutes, { auth: deps.auth, plans, billing });
  await app.register(checkoutRoutes, { auth: deps.auth, db: deps.db, checkout, config });
  const sweep = async () => {
    try {
      await billing.resync();
      await billing.sweep();
    } catch (error) {
      app.log.error({ err: error }, "billing sweep failed");
    }
  };
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  app.addHook("onReady", async () => {
    void sweep();
  });
  return { stop: () => clearInterval(timer), onAccountDeletion: billing.onAccountDeletion };
}

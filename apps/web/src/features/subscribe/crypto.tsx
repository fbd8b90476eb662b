import type { Plan } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ExternalLink } from "lucide-react";
import { useAppConfig } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { siteQuery } from "../site/api.ts";
import { plansQuery } from "./api.ts";
import { formatPrice, perPeriod, plansFor, TIERS } from "./frequency.ts";

function CryptoOption({ plan, link }: { plan: Plan; link: string | undefined }) {
  return (
    <li className="flex flex-col gap-2 rounded-lg bg-surface-2 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p>
        <span className="font-semibold">{formatPrice(plan.price, plan.currency)}</span>
        <span className="text-muted"> / {perPeriod(plan.period)}</span>
      </p>
      {link ? (
        <Button asChild size="sm" variant="outline">
          <a href={link} target="_blank" rel="noopener noreferrer">
            Pay with crypto
            <span className="sr-only">
              {" "}
              for {plan.title}, {plan.period === "annual" ? "annually" : "monthly"} (opens in a new tab)
            </span>
            <ExternalLink aria-hidden />
          </a>
        </Button>
      ) : (
        <p className="text-sm text-muted">Not offered on this site</p>
      )}
    </li>
  );
}

/**
 * The crypto subscribe page (/subscribe-crypto, §2.2; open): the three tiers, each plan's external
 * card-less payment link from the site's configuration, the note that such a payment is linked to
 * the account by hand, and the way back to the ordinary subscribe page.
 */
export function SubscribeCrypto() {
  const { brand } = useAppConfig();
  const plans = useQuery(plansQuery);
  const site = useQuery(siteQuery);
  const links = site.data?.crypto_links ?? {};
  const failed = plans.isError ? plans : site.isError ? site : null;

  return (
    <Page width="medium">
      <PageHeader title="Subscribe with crypto" description="Pay for a plan without a card." />
      <Banner tone="info" title="Your account is linked by hand" className="mb-6">
        A crypto payment is not tied to your {brand.name} account automatically. After paying, contact the
        site's administrators with your username and the payment's details, and they will link the plan to
        your account manually.
      </Banner>
      {failed ? (
        <LoadErrorBanner
          title="The plans couldn't be loaded"
          error={failed.error}
          onRetry={() => void failed.refetch()}
        />
      ) : !plans.data || !site.data ? (
        <PageSpinner label="Loading the plans" />
      ) : (
        <div className="flex flex-col gap-4">
          {TIERS.map((role) => {
            const options = [
              ...plansFor(plans.data.plans, "monthly"),
              ...plansFor(plans.data.plans, "annually"),
            ].filter((p) => p.role === role);
            const tier = options[0];
            if (!tier) return null;
            return (
              <section
                key={role}
                aria-labelledby={`crypto-${role}`}
                className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
              >
                <div className="flex flex-col gap-1">
                  <h2 id={`crypto-${role}`} className="text-lg font-semibold">
                    {tier.title}
                  </h2>
                  <p className="text-sm text-muted">{tier.description}</p>
                </div>
                <ul className="flex flex-col gap-2">
                  {options.map((plan) => (
                    <CryptoOption key={plan.plan_id} plan={plan} link={links[plan.plan_id]} />
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/subscribe" className="text-accent-text underline underline-offset-4">
          Pay by card on the ordinary subscribe page
        </Link>
      </p>
    </Page>
  );
}

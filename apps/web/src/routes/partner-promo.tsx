import { Link } from "@tanstack/react-router";
import { BadgePercent } from "lucide-react";
import { useAppConfig } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

/** The partner promo page (accounts-billing-admin §2.2 Other pages, §9 Partner promo). */
export default function PartnerPromoScreen() {
  const { brand } = useAppConfig();
  return (
    <Page width="narrow">
      <PageHeader title="A partner offer" description={`Try ${brand.name}'s paid tier for free.`} />
      <div className="flex flex-col gap-4 rounded-xl border border-border p-6">
        <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <BadgePercent aria-hidden className="size-6" />
        </span>
        <h2 className="text-xl font-semibold">14-day free trial, then $10 a month</h2>
        <p className="text-muted">
          That is 33% off the regular price, for as long as you stay subscribed. The offer runs until December
          31, 2023.
        </p>
        <Button asChild className="w-fit">
          <Link to="/sign-up">Start the free trial</Link>
        </Button>
      </div>
    </Page>
  );
}

import { useQuery } from "@tanstack/react-query";
import { Megaphone } from "lucide-react";
import { AdForm } from "../../features/admin-ads/ad-form.tsx";
import { AdItem } from "../../features/admin-ads/ad-list.tsx";
import { adminAdsQuery } from "../../features/admin-ads/api.ts";
import { LoadErrorBanner } from "../../features/shell/load-error-banner.tsx";
import { useNotice } from "../../lib/app-settings.ts";
import { Banner } from "../../ui/banner.tsx";
import { Card } from "../../ui/card.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

const PROVIDER_NOTE = {
  house: "Chats show these house ads. Nothing about a chat leaves this server.",
  external:
    "Chats show ads from the external ad server (HEARTH_ADS=external); these house ads are not used. The privacy page says what it is sent.",
  off: "Ads are off (HEARTH_ADS=off, or partner mode): no chat shows any.",
} as const;

/** Admin → Ads (issue 17): house ads for free members' chats, with views, clicks and CTR by day. */
export default function AdminAdsScreen() {
  const ads = useQuery(adminAdsQuery);
  const [notice, setNotice] = useNotice();
  return (
    <Page>
      <PageHeader
        title="Ads"
        description="Ads in the chats of free members, after the configured number of messages."
      />
      {ads.isPending ? (
        <PageSpinner label="Loading ads" />
      ) : !ads.data ? (
        <LoadErrorBanner title="Couldn't load the ads" error={ads.error} onRetry={() => void ads.refetch()} />
      ) : (
        <div className="flex flex-col gap-6">
          <Banner tone={ads.data.provider === "house" ? "info" : "warning"}>
            {PROVIDER_NOTE[ads.data.provider]}
          </Banner>
          <Card className="p-4">
            <h2 className="mb-3 font-semibold">New ad</h2>
            <AdForm ad={null} onDone={(name) => setNotice(`Ad ${name} added.`)} />
          </Card>
          <p role="status" className={notice ? "text-sm text-success" : "sr-only"}>
            {notice}
          </p>
          {ads.data.ads.length === 0 ? (
            <EmptyState icon={Megaphone} title="No ads yet" headingLevel={2}>
              Ads you add here appear in free members' chats.
            </EmptyState>
          ) : (
            <ul aria-label="House ads" className="divide-y divide-border rounded-lg border border-border">
              {ads.data.ads.map((ad) => (
                <AdItem key={ad.id} ad={ad} onNotice={setNotice} />
              ))}
            </ul>
          )}
        </div>
      )}
    </Page>
  );
}

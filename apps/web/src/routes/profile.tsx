import { useQuery } from "@tanstack/react-query";
import { YourDataSection } from "../features/account-transfer/your-data-section.tsx";
import { profileSettingsQuery } from "../features/profile/api.ts";
import { ProfileForm } from "../features/profile/profile-form.tsx";
import { PasswordSection, SessionsSection } from "../features/profile/sessions-card.tsx";
import { LoadErrorBanner } from "../features/shell/load-error-banner.tsx";
import { useMe } from "../lib/session.ts";
import { Page, PageHeader } from "../ui/page.tsx";
import { PageSpinner } from "../ui/spinner.tsx";

/** Profile settings (accounts-billing-admin §2.2): v1 wider, v2 narrower, by the server's configuration. */
export default function ProfileScreen() {
  const me = useMe();
  const settings = useQuery(profileSettingsQuery);
  const wide = settings.data?.layout !== "v2";
  return (
    <Page width={wide ? "medium" : "narrow"}>
      <PageHeader title="Profile settings" />
      {!me || settings.isPending ? (
        <PageSpinner label="Loading your profile" />
      ) : settings.isError ? (
        <LoadErrorBanner
          title="Your profile couldn't be loaded"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <div className="flex flex-col gap-10">
          {/* Compares against the saved values, which refresh after Update, so it stays mounted. */}
          <ProfileForm me={me} settings={settings.data} />
          {me.is_guest ? null : (
            <>
              <PasswordSection />
              <SessionsSection />
              {me.impersonated_by ? null : <YourDataSection />}
            </>
          )}
        </div>
      )}
    </Page>
  );
}

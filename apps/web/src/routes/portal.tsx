import { Portal } from "../features/portal/portal.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

/** /portal and /manage-subscription, the same page (accounts-billing-admin §2.2), signed in only. */
export default function PortalScreen() {
  return (
    <Page width="medium">
      <PageHeader title="Manage Subscription" description="Your plan, its billing and how you pay." />
      <Portal />
    </Page>
  );
}

import { Link, useParams } from "@tanstack/react-router";
import { Flag } from "lucide-react";
import { ReportForm } from "../features/moderation/report-form.tsx";
import { useMe } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

/**
 * /report and /report/{characterId} (accounts-billing-admin §2.2): report a chatbot to the
 * moderators. The route needs report_character; a signed-out visitor (who holds no permissions
 * and is let through, §6) is asked to sign in first, since reports are members'.
 */
export default function ReportScreen() {
  const me = useMe();
  const { characterId } = useParams({ strict: false }) as { characterId?: string };
  const here = characterId ? `/report/${encodeURIComponent(characterId)}` : "/report";
  return (
    <Page width="narrow">
      <PageHeader title="Report a chatbot" description="Tell the moderators what is wrong with a chatbot." />
      {me && !me.is_guest ? (
        <ReportForm key={characterId ?? ""} characterId={characterId} />
      ) : (
        <EmptyState
          icon={Flag}
          title="Sign in to report a chatbot"
          headingLevel={2}
          action={
            <Button asChild>
              <Link to="/sign-in" search={{ redirect: here }}>
                Sign in
              </Link>
            </Button>
          }
        >
          Reports come from members, so the moderators can follow up.
        </EmptyState>
      )}
    </Page>
  );
}

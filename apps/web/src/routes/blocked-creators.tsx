import type { BlockedCreator } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Ban, LogIn } from "lucide-react";
import { useState } from "react";
import { blockedCreatorsQuery } from "../features/blocking/api.ts";
import { UnblockCreatorDialog } from "../features/blocking/block-dialogs.tsx";
import { BlockedCreatorList } from "../features/blocking/blocked-list.tsx";
import { LoadErrorBanner } from "../features/shell/load-error-banner.tsx";
import { useMe } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { Page, PageHeader } from "../ui/page.tsx";
import { PageSpinner } from "../ui/spinner.tsx";

const TITLE = "Blocked creators";
const DESCRIPTION = "Their chatbots are hidden from you and can't be chatted with until you unblock them.";

/** Signed-out visitors and guests keep no blocks (accounts-billing-admin §2.2). */
function SignedOut() {
  return (
    <Page width="medium">
      <PageHeader title={TITLE} />
      <EmptyState
        icon={LogIn}
        title="You are not logged in yet!"
        headingLevel={2}
        action={
          <>
            <Button asChild>
              <Link to="/sign-in" search={{ redirect: "/blocked-creators" }}>
                Sign in
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/sign-up" search={{ redirect: "/blocked-creators" }}>
                Sign Up Free
              </Link>
            </Button>
          </>
        }
      >
        Sign in to see the creators you blocked.
      </EmptyState>
    </Page>
  );
}

function BlockedCreators() {
  const list = useQuery(blockedCreatorsQuery);
  const [unblocking, setUnblocking] = useState<BlockedCreator | null>(null);
  const creators = list.data?.creators ?? [];
  return (
    <Page width="medium">
      <PageHeader title={TITLE} description={DESCRIPTION} />
      {list.isPending ? (
        <PageSpinner label="Loading blocked creators" />
      ) : list.isError ? (
        <LoadErrorBanner
          title="Your blocked creators couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : creators.length === 0 ? (
        <EmptyState icon={Ban} title="You haven't blocked anyone" headingLevel={2}>
          Block a creator from a chat's menu to hide all of their chatbots. They'll be listed here.
        </EmptyState>
      ) : (
        <BlockedCreatorList creators={creators} onUnblock={setUnblocking} />
      )}
      <UnblockCreatorDialog
        creator={unblocking}
        open={unblocking !== null}
        onOpenChange={(open) => !open && setUnblocking(null)}
      />
    </Page>
  );
}

/** The Blocked creators page (accounts-billing-admin §2.2), in the main layout. */
export default function BlockedCreatorsScreen() {
  const me = useMe();
  if (!me || me.is_guest) return <SignedOut />;
  return <BlockedCreators />;
}

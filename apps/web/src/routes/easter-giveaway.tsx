import { EASTER_REFUSAL } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Copy, Egg } from "lucide-react";
import { LoadErrorBanner } from "../features/shell/load-error-banner.tsx";
import { easterCodeQuery } from "../features/site/api.ts";
import { isApiRequestError } from "../lib/api.ts";
import { useMe } from "../lib/session.ts";
import { useCopy } from "../lib/use-copy.ts";
import { Button } from "../ui/button.tsx";
import { EmptyState } from "../ui/empty-state.tsx";
import { Page, PageHeader } from "../ui/page.tsx";
import { PageSpinner } from "../ui/spinner.tsx";

/** The Easter giveaway (accounts-billing-admin §2.2, §6): active premium subscribers see the code. */
export default function EasterGiveawayScreen() {
  const me = useMe();
  const member = me !== null && !me.is_guest;
  const code = useQuery({ ...easterCodeQuery, enabled: member });
  const { copied, failed, copy } = useCopy(2000);
  const refused =
    !member || (code.isError && isApiRequestError(code.error) && [403, 404].includes(code.error.status));

  return (
    <Page width="narrow">
      <PageHeader title="Easter giveaway" description="A thank-you for our premium subscribers." />
      {refused ? (
        <EmptyState
          icon={Egg}
          title="No code for this account"
          headingLevel={2}
          action={
            <Button asChild>
              <Link to={member ? "/" : "/sign-in"}>{member ? "Go to Home" : "Sign in"}</Link>
            </Button>
          }
        >
          {EASTER_REFUSAL}
        </EmptyState>
      ) : code.isPending ? (
        <PageSpinner />
      ) : code.isError ? (
        <LoadErrorBanner
          title="The code couldn't be loaded"
          error={code.error}
          onRetry={() => void code.refetch()}
        />
      ) : (
        <div className="flex flex-col items-center gap-4 rounded-xl border border-border p-6 text-center">
          <p className="text-muted">Your Easter code</p>
          <p className="font-mono text-2xl font-semibold tracking-widest">{code.data.code}</p>
          <div className="relative">
            <Button variant="outline" onClick={() => void copy(code.data.code)}>
              <Copy aria-hidden />
              Copy code
            </Button>
            {copied ? (
              <span
                role="status"
                className="absolute -top-9 left-1/2 -translate-x-1/2 rounded bg-fg px-2 py-1 text-xs whitespace-nowrap text-bg"
              >
                Copied!
              </span>
            ) : null}
          </div>
          {failed ? (
            <p className="text-sm text-danger">Your browser refused; select the code and copy it.</p>
          ) : null}
        </div>
      )}
    </Page>
  );
}

import { accountLifecycleEndpoints } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useSessionActions } from "../features/auth/use-session-actions.ts";
import { OnboardingFlow } from "../features/onboarding/onboarding-flow.tsx";
import { LoadErrorBanner } from "../features/shell/load-error-banner.tsx";
import { call } from "../lib/client.ts";
import { Card } from "../ui/card.tsx";
import { Page } from "../ui/page.tsx";
import { Spinner } from "../ui/spinner.tsx";

/** /welcome: onboarding for a signed-in member without a username, resumed from the server. */
export default function WelcomeScreen() {
  const navigate = useNavigate();
  const { refreshSession } = useSessionActions();
  const state = useQuery({
    queryKey: ["onboarding"],
    queryFn: ({ signal }) => call(accountLifecycleEndpoints.onboarding, { signal }),
    staleTime: 0,
  });
  const done = async () => {
    await refreshSession();
    await navigate({ to: "/", replace: true });
  };
  return (
    <Page width="narrow">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight sm:text-3xl">Set up your profile</h1>
      <Card className="p-5 sm:p-6">
        {state.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading your progress" />
          </div>
        ) : state.isError ? (
          <LoadErrorBanner
            title="Your onboarding could not be loaded"
            error={state.error}
            onRetry={() => void state.refetch()}
          />
        ) : (
          <OnboardingFlow saved={state.data} onDone={done} />
        )}
      </Card>
    </Page>
  );
}

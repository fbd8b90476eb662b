import { KeyRound, UserRound } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useAppConfig } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { authApi } from "./auth-api.ts";
import { useGuestSignIn } from "./use-guest-sign-in.ts";

/**
 * Guest and hosted-login (OIDC) buttons, each shown only when the server enables it. `guest`
 * false leaves the guest button out (already a guest, or the page asked for needs an account).
 */
export function OtherSignInOptions({
  redirectTo,
  divider,
  guest: offerGuest = true,
}: {
  redirectTo: string;
  divider: boolean;
  guest?: boolean;
}) {
  const { auth } = useAppConfig();
  const guests = auth.guests && offerGuest;
  const guest = useGuestSignIn(redirectTo);
  const [providerPending, setProviderPending] = useState(false);
  const [providerError, setProviderError] = useState<string | null>(null);

  if (!guests && !auth.oidc) return null;

  const signInWithProvider = async (providerId: string) => {
    setProviderPending(true);
    setProviderError(null);
    try {
      const callbackURL = new URL(redirectTo, window.location.origin).href;
      const { url } = await authApi.signInWithProvider(providerId, callbackURL);
      // Off to the provider's login page; the spinner stays until this page unloads.
      window.location.assign(url);
    } catch (caught) {
      setProviderError(errorMessage(caught));
      setProviderPending(false);
    }
  };

  const busy = guest.pending || providerPending;
  const error = providerError ?? guest.error;
  return (
    <div className="flex flex-col gap-3">
      {divider ? (
        <div className="flex items-center gap-3 text-xs tracking-wider text-muted uppercase">
          <span className="h-px flex-1 bg-border" />
          or
          <span className="h-px flex-1 bg-border" />
        </div>
      ) : null}
      {error ? <Banner tone="danger">{error}</Banner> : null}
      {auth.oidc ? (
        <Button
          variant="outline"
          size="lg"
          loading={providerPending}
          disabled={busy}
          onClick={() => auth.oidc && signInWithProvider(auth.oidc.provider_id)}
        >
          {providerPending ? null : <KeyRound aria-hidden />}
          Sign in with {auth.oidc.label}
        </Button>
      ) : null}
      {guests ? (
        <Button variant="secondary" size="lg" loading={guest.pending} disabled={busy} onClick={guest.start}>
          {guest.pending ? null : <UserRound aria-hidden />}
          Continue as guest
        </Button>
      ) : null}
    </div>
  );
}

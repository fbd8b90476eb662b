import { siteEndpoints } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useRouterState } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { call } from "../../lib/client.ts";
import { meQuery, useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { useSite } from "./api.ts";

/** Pages a signed-out visitor may stay on in partner mode: where an external account is made. */
const OPEN_IN_PARTNER_MODE = ["/external", "/external/signup"];

/**
 * Partner mode's sign-in (accounts-billing-admin §4): a `?token=` in the address is exchanged for
 * a session once, then dropped from the address (it should not linger in history or be shared);
 * a signed-out visitor anywhere else is sent to the partner's logout address.
 */
export function PartnerSession() {
  const site = useSite();
  const me = useMe();
  const queryClient = useQueryClient();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [error, setError] = useState<string | null>(null);
  // The token is read once, at mount: it is removed from the address right away.
  const [token] = useState(() => new URLSearchParams(window.location.search).get("token"));
  const [signingIn, setSigningIn] = useState(token !== null);
  const tried = useRef(false);

  useEffect(() => {
    if (!site || !token || tried.current) return;
    if (!site.partner.enabled) {
      setSigningIn(false);
      return;
    }
    tried.current = true;
    const url = new URL(window.location.href);
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", url);
    call(siteEndpoints.partnerLogin, { body: { token } })
      .then((signedIn) => queryClient.setQueryData(meQuery.queryKey, signedIn))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : "The partner sign-in failed."))
      .finally(() => setSigningIn(false));
  }, [site, token, queryClient]);

  useEffect(() => {
    if (!site?.partner.enabled || me || signingIn || error) return;
    if (OPEN_IN_PARTNER_MODE.includes(pathname) || !site.partner.logout_url) return;
    window.location.replace(site.partner.logout_url);
  }, [site, me, signingIn, error, pathname]);

  if (!error) return null;
  return (
    <Banner tone="danger" title="You could not be signed in" className="m-4">
      {error}
    </Banner>
  );
}

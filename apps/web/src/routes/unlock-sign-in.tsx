import { accountLifecycleEndpoints } from "@hearth/contract";
import { Link, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { errorMessage } from "../lib/api.ts";
import { call } from "../lib/client.ts";
import { Banner } from "../ui/banner.tsx";
import { Button, buttonClass } from "../ui/button.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

/**
 * Where a mailed unlock link leads (one-time token in the query): a button, not an automatic
 * call, so a mail scanner that opens the link unlocks nothing.
 */
export default function UnlockSignInScreen() {
  const search = useSearch({ strict: false }) as { token?: unknown };
  const token = typeof search.token === "string" ? search.token : "";
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);

  const unlock = async () => {
    setSaving(true);
    setError(null);
    try {
      await call(accountLifecycleEndpoints.unlockSignIn, { body: { token } });
      setDone(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page width="narrow">
      <PageHeader title="Unlock signing in" />
      {!token ? (
        <Banner tone="danger">This link is incomplete. Open the whole link from the e-mail.</Banner>
      ) : done ? (
        <div className="flex flex-col gap-4">
          <Banner tone="success">Signing in is unlocked. Sign in with your password now.</Banner>
          <Link to="/sign-in" className={buttonClass("primary")}>
            Sign in
          </Link>
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          {error ? <Banner tone="danger">{error}</Banner> : null}
          <p>
            Wrong passwords locked signing in to your account for a while. If they were yours, unlock it now.
          </p>
          <Button type="button" loading={saving} onClick={unlock}>
            Unlock signing in
          </Button>
        </div>
      )}
    </Page>
  );
}

import { Link, useSearch } from "@tanstack/react-router";
import { AuthCard } from "../features/auth/auth-card.tsx";
import { EmailSignInForm } from "../features/auth/email-sign-in-form.tsx";
import { OtherSignInOptions } from "../features/auth/other-sign-in-options.tsx";
import { useAppConfig, useMe } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { guestCanReach, safeRedirect } from "./guard.ts";

export default function SignInScreen() {
  const { brand, auth } = useAppConfig();
  const search = useSearch({ strict: false }) as { redirect?: unknown };
  const redirectTo = safeRedirect(search.redirect);
  const me = useMe();
  // A guest session can't open a page that needs an account: offering one would lead back here.
  const guestOption = !me?.is_guest && guestCanReach(redirectTo);
  const noMethod = !auth.email_password && !auth.guests && !auth.oidc;

  return (
    <AuthCard
      title="Sign in"
      description={`Welcome back to ${brand.name}.`}
      footer={
        auth.email_password ? (
          <>
            New here?{" "}
            <Link
              to="/sign-up"
              search={search.redirect ? { redirect: redirectTo } : {}}
              className="font-medium text-accent-text hover:underline"
            >
              Create an account
            </Link>
          </>
        ) : null
      }
    >
      {me?.is_guest ? (
        <Banner tone="info">
          {guestCanReach(redirectTo)
            ? "You're using a guest session. Sign in to keep your chats from now on."
            : "This page needs an account. You're using a guest session: sign in or create an account to open it."}
        </Banner>
      ) : null}
      {auth.email_password ? <EmailSignInForm redirectTo={redirectTo} /> : null}
      <OtherSignInOptions redirectTo={redirectTo} divider={auth.email_password} guest={guestOption} />
      {noMethod ? <Banner tone="warning">Signing in is turned off on this server.</Banner> : null}
    </AuthCard>
  );
}

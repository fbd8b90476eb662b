import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { AuthCard } from "../features/auth/auth-card.tsx";
import { EmailSignUpForm } from "../features/auth/email-sign-up-form.tsx";
import { OtherSignInOptions } from "../features/auth/other-sign-in-options.tsx";
import { appConfigQuery, useAppConfig, useMe } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { safeRedirect } from "./guard.ts";

export default function SignUpScreen() {
  const { brand, auth } = useAppConfig();
  const me = useMe();
  const search = useSearch({ strict: false }) as { redirect?: unknown };
  const redirectTo = safeRedirect(search.redirect);
  // Someone may have signed up since this tab loaded the config: ask again, so the
  // first-administrator note is only shown while it is still true.
  const firstUserAdmin = useQuery({ ...appConfigQuery, staleTime: 0 }).data?.auth.first_user_admin ?? false;

  return (
    <AuthCard
      title="Create your account"
      description={`Join ${brand.name} to keep your chats and pick up where you left off.`}
      footer={
        <>
          Already have an account?{" "}
          <Link
            to="/sign-in"
            search={search.redirect ? { redirect: redirectTo } : {}}
            className="font-medium text-accent-text hover:underline"
          >
            Sign in
          </Link>
        </>
      }
    >
      {me?.is_guest ? (
        <Banner tone="info">
          You're using a guest session. Create an account to keep your chats from now on.
        </Banner>
      ) : null}
      {firstUserAdmin ? (
        <Banner tone="info" title="You're the first one here">
          The first account created on this server becomes its administrator: you'll manage users and models.
        </Banner>
      ) : null}
      {auth.email_password ? (
        <EmailSignUpForm redirectTo={redirectTo} />
      ) : (
        <Banner tone="info">This server doesn't take new accounts with email and password.</Banner>
      )}
      {me?.is_guest ? null : <OtherSignInOptions redirectTo={redirectTo} divider={auth.email_password} />}
    </AuthCard>
  );
}

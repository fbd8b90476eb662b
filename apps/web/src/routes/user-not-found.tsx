import { ACCOUNT_INVALID_MESSAGE } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { LogOut, UserX } from "lucide-react";
import { useState } from "react";
import { useSessionActions } from "../features/auth/use-session-actions.ts";
import { useMe } from "../lib/session.ts";
import { Button, buttonClass } from "../ui/button.tsx";
import { Page } from "../ui/page.tsx";

/** /user-not-found (accounts-billing-admin §2.2): the invalid-account text and a logout prompt. */
export default function UserNotFoundScreen() {
  const me = useMe();
  const { signOut } = useSessionActions();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <Page width="narrow" className="flex flex-col items-center gap-5 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-danger-soft text-danger">
        <UserX aria-hidden className="size-7" />
      </span>
      <h1 className="text-2xl font-semibold tracking-tight">Account not found</h1>
      <p className="text-muted">{ACCOUNT_INVALID_MESSAGE}</p>
      {me ? (
        <>
          <p>Log out and sign in with another account.</p>
          <Button
            variant="outline"
            loading={signingOut}
            onClick={() => {
              setSigningOut(true);
              signOut().finally(() => setSigningOut(false));
            }}
          >
            <LogOut aria-hidden />
            Log out
          </Button>
        </>
      ) : (
        <Link to="/sign-in" className={buttonClass("outline")}>
          Sign in with another account
        </Link>
      )}
    </Page>
  );
}

import { Link } from "@tanstack/react-router";
import { LogIn, UserRound } from "lucide-react";
import type { ReactNode } from "react";
import { useAppConfig } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { useGuestSignIn } from "./use-guest-sign-in.ts";

interface SignInGateProps {
  /** Above the heading: the character's picture, say. */
  picture?: ReactNode;
  heading: string;
  /** Where a guest session continues to. */
  guestTo: string;
  /** Where signing in comes back to. */
  signInTo: string;
}

/**
 * A page that needs a session (a chat) opened by a signed-out visitor, e.g. from a share link:
 * the two ways in, side by side, instead of an error. Guests only where the server allows them.
 */
export function SignInGate({ picture, heading, guestTo, signInTo }: SignInGateProps) {
  const { auth } = useAppConfig();
  const guest = useGuestSignIn(guestTo);
  return (
    <section
      aria-labelledby="sign-in-gate-heading"
      className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center gap-5 px-4 py-10 text-center"
    >
      {picture}
      <div className="flex flex-col gap-2">
        <h1 id="sign-in-gate-heading" className="text-2xl font-semibold tracking-tight text-balance">
          {heading}
        </h1>
        <p className="text-muted">
          {auth.guests
            ? "Continue as a guest to start right away (guest chats are not saved), or sign in to keep your chats."
            : "Sign in to start chatting. Your chats are kept in your account."}
        </p>
      </div>
      {guest.error ? (
        <Banner tone="danger" className="w-full text-left">
          {guest.error}
        </Banner>
      ) : null}
      <div className="flex w-full flex-col gap-2 sm:flex-row sm:justify-center">
        {auth.guests ? (
          <Button size="lg" loading={guest.pending} onClick={guest.start}>
            {guest.pending ? null : <UserRound aria-hidden />}
            Continue as guest
          </Button>
        ) : null}
        <Button asChild size="lg" variant={auth.guests ? "outline" : "primary"}>
          <Link to="/sign-in" search={{ redirect: signInTo }}>
            <LogIn aria-hidden />
            Sign in
          </Link>
        </Button>
      </div>
    </section>
  );
}

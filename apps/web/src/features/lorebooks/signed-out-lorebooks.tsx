import { Link } from "@tanstack/react-router";
import { BookOpen } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";

/** Guests and signed-out visitors keep no lorebooks: the pages offer a free account instead. */
export function SignedOutLorebooks({ redirectTo }: { redirectTo: string }) {
  return (
    <Page width="medium">
      <PageHeader title="Lorebooks" />
      <EmptyState
        icon={BookOpen}
        title="Lorebooks come with a free account"
        headingLevel={2}
        action={
          <>
            <Button asChild>
              <Link to="/sign-up" search={{ redirect: redirectTo }}>
                Sign Up Free
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/sign-in" search={{ redirect: redirectTo }}>
                Sign in
              </Link>
            </Button>
          </>
        }
      >
        A lorebook holds the places, people and rules of a world. Sign up to write or import yours and attach
        them to your chats.
      </EmptyState>
    </Page>
  );
}

import { Link } from "@tanstack/react-router";
import { UsersRound } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";

/** Guests have no personas (§6): the Personas pages offer a free account instead. */
export function SignedOutPersonas({ title, redirectTo }: { title: string; redirectTo: string }) {
  return (
    <Page width="medium">
      <PageHeader title={title} />
      <EmptyState
        icon={UsersRound}
        title="Personas come with a free account"
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
        A persona is who you are in a chat: a name, a picture and a few highlights that characters know you
        by. Sign up to create yours and switch between them in any chat.
      </EmptyState>
    </Page>
  );
}

import { Link } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button.tsx";
import { EmptyState } from "./empty-state.tsx";
import { Page, PageHeader } from "./page.tsx";

/**
 * A page that needs an account, as a guest or signed-out visitor sees it: what the feature is,
 * and the way to a free account (then back to `redirectTo`).
 */
export function AccountRequired({
  pageTitle,
  icon,
  title,
  redirectTo,
  children,
}: {
  pageTitle: string;
  icon: LucideIcon;
  title: string;
  redirectTo: string;
  children: ReactNode;
}) {
  return (
    <Page width="medium">
      <PageHeader title={pageTitle} />
      <EmptyState
        icon={icon}
        title={title}
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
        {children}
      </EmptyState>
    </Page>
  );
}

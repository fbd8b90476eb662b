import { Link } from "@tanstack/react-router";
import { Ban } from "lucide-react";
import { useAppConfig } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";

/** Shown in place of a page to a limited_access account that lacks the page's permission. */
export function LimitedAccessScreen() {
  const { brand } = useAppConfig();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-warning-soft text-warning">
        <Ban aria-hidden className="size-7" />
      </span>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Your access is limited</h1>
        <p className="max-w-md text-muted">
          The moderators of {brand.name} have limited what your account can do, and this page is not available
          to it. The rest of the site that is open to you still works.
        </p>
      </div>
      <Button asChild>
        <Link to="/">Go to Home</Link>
      </Button>
    </div>
  );
}

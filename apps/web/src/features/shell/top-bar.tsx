import { Link, useRouterState } from "@tanstack/react-router";
import { Menu } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { useEffect, useState } from "react";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { SheetContent } from "../../ui/dialog.tsx";
import { AccountMenu } from "./account-menu.tsx";
import { BrandMark } from "./brand-mark.tsx";
import { SideNav } from "./side-nav.tsx";
import { ThemeToggle } from "./theme-toggle.tsx";

/** On phones the side navigation lives in this drawer. */
function NavDrawer() {
  const [open, setOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // Close when the route changes (a link inside was followed, or back was pressed).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route changing is the trigger
  useEffect(() => setOpen(false), [pathname]);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation">
          <Menu aria-hidden />
        </Button>
      </DialogPrimitive.Trigger>
      <SheetContent title="Navigation">
        <div className="flex h-14 items-center border-b border-border px-4">
          <BrandMark />
        </div>
        <div className="flex-1 overflow-y-auto">
          <SideNav onNavigate={() => setOpen(false)} />
        </div>
      </SheetContent>
    </DialogPrimitive.Root>
  );
}

export function TopBar() {
  const me = useMe();
  return (
    <header className="sticky top-0 z-40 flex h-14 items-center gap-1 border-b border-border bg-bg/85 px-2 backdrop-blur-md sm:gap-2 sm:px-4">
      <NavDrawer />
      {/* Named by the brand it shows (WCAG 2.5.3: the visible text starts the name). */}
      <Link to="/" className="min-w-0 rounded-lg px-1 py-1">
        <BrandMark />
        <span className="sr-only"> home</span>
      </Link>
      <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
        <ThemeToggle />
        {me ? (
          <AccountMenu me={me} />
        ) : (
          <>
            <Button asChild variant="ghost" size="sm">
              <Link to="/sign-in">Sign in</Link>
            </Button>
            <Button asChild size="sm">
              <Link to="/sign-up">Sign up</Link>
            </Button>
          </>
        )}
      </div>
    </header>
  );
}

import { Link } from "@tanstack/react-router";
import { MapPinOff } from "lucide-react";
import { useEffect } from "react";
import { AppShell } from "../features/shell/app-shell.tsx";
import { pageTitle } from "../lib/brand.ts";
import { useAppConfig } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";

/** Unknown paths, and spec routes whose feature isn't built yet. */
export function NotFoundScreen() {
  const { brand } = useAppConfig();
  useEffect(() => {
    document.title = pageTitle("Page not found", brand.name);
  }, [brand.name]);

  return (
    <AppShell>
      <div className="flex flex-1 flex-col items-center justify-center gap-5 px-4 py-16 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <MapPinOff aria-hidden className="size-7" />
        </span>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium tracking-wider text-muted uppercase">404</p>
          <h1 className="text-3xl font-semibold tracking-tight">This page is gone.</h1>
          <p className="max-w-md text-muted">The link may be mistyped, or the page was moved or removed.</p>
        </div>
        <Button asChild>
          <Link to="/">Go to Home</Link>
        </Button>
      </div>
    </AppShell>
  );
}

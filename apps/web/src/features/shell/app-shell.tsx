import { useRouterState } from "@tanstack/react-router";
import type { MouseEvent, ReactNode } from "react";
import { useMe } from "../../lib/session.ts";
import { useSite } from "../site/api.ts";
import { PartnerSession } from "../site/partner-session.tsx";
import { BirthdayBanner } from "./birthday-banner.tsx";
import { Footer } from "./footer.tsx";
import { GuestBanner } from "./guest-banner.tsx";
import { ImpersonationBanner } from "./impersonation-banner.tsx";
import { PartnerNavbar } from "./partner-navbar.tsx";
import { SideNav } from "./side-nav.tsx";
import { TopBar } from "./top-bar.tsx";

/**
 * The skip link lands where a screen's work starts: the element marked data-skip-target (the
 * chat's message box) when there is one that can take focus, else the main content.
 */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById("main");
  const target = main?.querySelector<HTMLElement>("[data-skip-target]:not(:disabled)") ?? main;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/**
 * True while the router loads the next screen: the old one stays up meanwhile (up to the pending
 * spinner), so the main region says it is busy (aria-busy) rather than offering stale content.
 */
export function useNavigating(): boolean {
  return useRouterState({ select: (state) => state.isLoading });
}

/** Layout of accounts-billing-admin §2.2: top bar, side navigation (a drawer on phones), footer. */
export function AppShell({ footer = true, children }: { footer?: boolean; children: ReactNode }) {
  const me = useMe();
  // Partner mode: the partner navbar replaces the top bar and the side navigation (§2.2 Layout).
  const partner = useSite()?.partner.enabled ?? false;
  const navigating = useNavigating();
  return (
    <div className="flex min-h-dvh flex-col">
      {/* biome-ignore lint/a11y/useValidAnchor: a real link to #main; the click only picks a closer target when the screen has one */}
      <a
        href="#main"
        onClick={skipToContent}
        className="sr-only rounded-lg bg-accent px-4 py-2 text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <ImpersonationBanner />
      <BirthdayBanner />
      {partner ? <PartnerNavbar /> : <TopBar />}
      <PartnerSession />
      {me?.is_guest ? <GuestBanner /> : null}
      <div className="flex flex-1">
        {/* The border runs the full page height; the nav inside stays in view while scrolling. */}
        {partner ? null : (
          <aside className="hidden w-60 shrink-0 border-r border-border md:block">
            <div className="sticky top-14 max-h-[calc(100dvh-3.5rem)] overflow-y-auto">
              <SideNav />
            </div>
          </aside>
        )}
        <div className="flex min-w-0 flex-1 flex-col">
          <main
            id="main"
            tabIndex={-1}
            aria-busy={navigating || undefined}
            className="flex flex-1 flex-col outline-none"
          >
            {children}
          </main>
          {footer ? <Footer /> : null}
        </div>
      </div>
    </div>
  );
}

import type { SiteLink } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { useSite } from "../site/api.ts";
import { BrandMark } from "./brand-mark.tsx";

const linkClass = "rounded text-muted transition hover:text-fg";
const storeNames = { google_play: "Get it on Google Play", app_store: "Download on the App Store" } as const;

/** Site paths go through the router; other sites open in a new tab. */
function FooterLink({ link }: { link: SiteLink }) {
  if (link.url.startsWith("/")) {
    return (
      <Link to={link.url} className={linkClass}>
        {link.label}
      </Link>
    );
  }
  return (
    <a href={link.url} className={linkClass} target="_blank" rel="noopener noreferrer">
      {link.label}
    </a>
  );
}

function LinkColumn({ title, links }: { title: string; links: SiteLink[] }) {
  if (links.length === 0) return null;
  return (
    <nav aria-label={title} className="flex flex-col gap-2">
      <h2 className="font-medium">{title}</h2>
      <ul className="flex flex-col gap-1.5">
        {links.map((link) => (
          <li key={`${link.label}-${link.url}`}>
            <FooterLink link={link} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The footer of accounts-billing-admin §2.2 Layout: resources, community, socials, app badges, 2257, from configuration. */
export function Footer() {
  const config = useAppConfig();
  const site = useSite();
  const me = useMe();
  const member = me !== null && !me.is_guest;
  const account: SiteLink[] =
    member || site?.partner.enabled
      ? []
      : [
          { label: "Create an account", url: "/sign-up" },
          { label: "Sign in", url: "/sign-in" },
        ];
  const footer = site?.footer;

  return (
    <footer className="border-t border-border px-4 py-8 text-sm sm:px-6">
      <div className="mx-auto grid w-full max-w-6xl gap-6 sm:grid-cols-2 lg:grid-cols-5">
        <div className="flex max-w-sm flex-col gap-2 lg:col-span-2">
          <BrandMark />
          <p className="text-muted">Chat and roleplay with AI characters.</p>
          {footer && footer.app_badges.length > 0 ? (
            <ul className="mt-2 flex flex-wrap gap-2">
              {footer.app_badges.map((badge) => (
                <li key={badge.url}>
                  <a
                    href={badge.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex h-10 items-center rounded-lg border border-border-strong px-3 text-xs font-medium hover:bg-surface-2"
                  >
                    {storeNames[badge.store]}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <LinkColumn title="Resources" links={[...(footer?.resources ?? []), ...account]} />
        <LinkColumn title="Community" links={footer?.community ?? []} />
        <LinkColumn title="Socials" links={footer?.socials ?? []} />
      </div>
      <div className="mx-auto mt-8 flex w-full max-w-6xl flex-col gap-2 text-xs text-muted sm:flex-row sm:justify-between">
        <p>Powered by Hearth {config.version}</p>
        {footer?.statement_2257 ? (
          <Link to="/2257" className={linkClass}>
            18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement
          </Link>
        ) : null}
      </div>
    </footer>
  );
}

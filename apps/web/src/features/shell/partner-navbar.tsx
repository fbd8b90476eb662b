import { Link } from "@tanstack/react-router";
import { useMe } from "../../lib/session.ts";
import { AccountMenu } from "./account-menu.tsx";
import { BrandMark } from "./brand-mark.tsx";
import { visibleNav } from "./nav-items.ts";

/**
 * The partner navbar (accounts-billing-admin §2.2 Layout, §6): in partner mode the partner's site
 * frames Hearth, so one compact row of links replaces the top bar and side navigation, with no
 * sign-in or sign-up (the partner signs its users in).
 */
export function PartnerNavbar() {
  const me = useMe();
  const items = visibleNav(me)
    .flatMap((section) => section.items)
    .filter((item) => !item.to.startsWith("/admin"));
  return (
    <header className="sticky top-0 z-40 flex flex-wrap items-center gap-2 border-b border-border bg-bg/85 px-2 py-2 backdrop-blur-md sm:px-4">
      <Link to="/" className="rounded-lg px-1 py-1">
        <BrandMark />
        <span className="sr-only"> home</span>
      </Link>
      <nav
        aria-label="Partner navigation"
        className="order-last w-full overflow-x-auto sm:order-none sm:w-auto"
      >
        <ul className="flex gap-1">
          {items.map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                className="block rounded-lg px-3 py-1.5 text-sm whitespace-nowrap text-muted hover:bg-surface-2 hover:text-fg"
                activeOptions={{ exact: item.to === "/" }}
                activeProps={{ className: "bg-surface-2 text-fg", "aria-current": "page" }}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="ml-auto">{me ? <AccountMenu me={me} /> : null}</div>
    </header>
  );
}

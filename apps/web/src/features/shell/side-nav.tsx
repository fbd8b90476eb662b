import { Link } from "@tanstack/react-router";
import { useMe } from "../../lib/session.ts";
import { visibleNav } from "./nav-items.ts";

/** The permission-filtered navigation; the same list sits in the sidebar and the phone drawer. */
export function SideNav({ onNavigate }: { onNavigate?: () => void }) {
  const me = useMe();
  const sections = visibleNav(me);
  return (
    <nav aria-label="Main" className="flex flex-col gap-6 p-3">
      {sections.map((section) => (
        <div key={section.label ?? "main"} className="flex flex-col gap-1">
          {section.label ? (
            <h2 className="px-3 pb-1 text-xs font-semibold tracking-wider text-muted uppercase">
              {section.label}
            </h2>
          ) : null}
          <ul className="flex flex-col gap-0.5">
            {section.items.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  onClick={onNavigate}
                  activeOptions={{ exact: item.to === "/" }}
                  className={
                    "flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-muted transition " +
                    "hover:bg-surface-2 hover:text-fg data-[status=active]:bg-accent-soft data-[status=active]:text-accent-text"
                  }
                >
                  <item.icon aria-hidden className="size-4.5 shrink-0" />
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

import type { Me } from "@hearth/contract";
import { House, type LucideIcon, Users } from "lucide-react";
import { canOpen } from "../../routes/guard.ts";
import { routeEntry } from "../../routes/table.ts";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

export interface NavSection {
  label?: string;
  items: NavItem[];
}

/** Every link the side navigation may show. A new feature adds its item here. */
const navSections: NavSection[] = [
  { items: [{ to: "/", label: "Home", icon: House }] },
  { label: "Admin", items: [{ to: "/admin/users", label: "Users", icon: Users }] },
];

/**
 * The items this user may open, judged by the same guard as the routes. Items whose route has no
 * screen yet are left out, so the nav never links to a feature that doesn't exist.
 */
export function visibleNav(me: Me | null): NavSection[] {
  return navSections
    .map((section) => ({
      ...section,
      items: section.items.filter((item) => {
        const entry = routeEntry(item.to);
        return entry?.screen !== undefined && canOpen(entry, me);
      }),
    }))
    .filter((section) => section.items.length > 0);
}

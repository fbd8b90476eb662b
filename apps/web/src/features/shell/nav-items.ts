import type { Me, Permission } from "@hearth/contract";
import {
  Ban,
  BookOpen,
  Bot,
  ClipboardCheck,
  Cpu,
  Drama,
  Heart,
  House,
  type LucideIcon,
  Megaphone,
  MessagesSquare,
  Receipt,
  Sparkles,
  SquarePen,
  Trophy,
  Users,
} from "lucide-react";
import { canOpen } from "../../routes/guard.ts";
import { routeEntry } from "../../routes/table.ts";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Hidden from guests (their chats aren't saved, so there is nothing to list). */
  membersOnly?: true;
  /** A permission the feature needs beyond the route's own (personas: limited accounts have none). */
  needs?: Permission;
}

export interface NavSection {
  label?: string;
  items: NavItem[];
}

/** Every link the side navigation may show. A new feature adds its item here. */
const navSections: NavSection[] = [
  {
    items: [
      { to: "/", label: "Home", icon: House },
      { to: "/chats", label: "Chats", icon: MessagesSquare, membersOnly: true },
      { to: "/chatbot/create", label: "Create", icon: SquarePen },
      { to: "/my-chatbots", label: "My Chatbots", icon: Bot },
      { to: "/favorites", label: "Favorites", icon: Heart },
      { to: "/recommended", label: "Recommended", icon: Sparkles },
      { to: "/personas", label: "Personas", icon: Drama, membersOnly: true, needs: "personas" },
      { to: "/lorebooks", label: "Lorebooks", icon: BookOpen, membersOnly: true },
      { to: "/creators/leaderboard", label: "Leaderboard", icon: Trophy },
      { to: "/blocked-creators", label: "Blocked creators", icon: Ban, membersOnly: true },
    ],
  },
  {
    label: "Admin",
    items: [
      { to: "/admin/users", label: "Users", icon: Users },
      { to: "/admin/reviews", label: "Reviews", icon: ClipboardCheck, needs: "admin" },
      { to: "/admin/models", label: "Models", icon: Cpu },
      { to: "/admin/billing", label: "Billing", icon: Receipt },
      { to: "/admin/ads", label: "Ads", icon: Megaphone },
    ],
  },
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
        if (item.membersOnly && (!me || me.is_guest)) return false;
        if (item.needs && !me?.permissions.includes(item.needs)) return false;
        return entry?.screen !== undefined && canOpen(entry, me);
      }),
    }))
    .filter((section) => section.items.length > 0);
}

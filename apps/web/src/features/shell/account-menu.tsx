import type { Me } from "@hearth/contract";
import { roleTitle } from "@hearth/contract/labels";
import { Link } from "@tanstack/react-router";
import { ChevronDown, LogOut, Settings, UserPlus, UserRound } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { useSessionActions } from "../auth/use-session-actions.ts";

/** Who is signed in, their plan, and the way out. */
export function AccountMenu({ me }: { me: Me }) {
  const { signOut } = useSessionActions();
  const [signingOut, setSigningOut] = useState(false);
  const displayName = me.is_guest ? "Guest" : me.name;

  return (
    <DropdownMenu>
      {/* Named by its text, not aria-label: the visible name must be part of it (WCAG 2.5.3). */}
      <DropdownMenuTrigger className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 transition hover:bg-surface-2 data-[state=open]:bg-surface-2">
        <span aria-hidden className="contents">
          <Avatar name={displayName} src={me.avatar_url} size="sm" />
        </span>
        <span className="sr-only">Account menu for </span>
        <span className="sr-only max-w-40 truncate text-sm font-medium sm:not-sr-only">{displayName}</span>
        <ChevronDown aria-hidden className="size-4 text-muted" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="flex flex-col">
          <span className="truncate font-medium">{displayName}</span>
          <span className="text-xs text-muted">
            {me.is_guest ? "Guest session" : `${roleTitle[me.role]} plan`}
            {me.is_admin ? " · Admin" : ""}
          </span>
          {me.email && !me.is_guest ? <span className="truncate text-xs text-muted">{me.email}</span> : null}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {me.is_guest ? (
          <DropdownMenuItem asChild>
            <Link to="/sign-up">
              <UserPlus aria-hidden />
              Sign up free
            </Link>
          </DropdownMenuItem>
        ) : (
          <>
            <DropdownMenuItem asChild>
              <Link to="/profile">
                <UserRound aria-hidden />
                Profile
              </Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to="/settings">
                <Settings aria-hidden />
                Settings
              </Link>
            </DropdownMenuItem>
          </>
        )}
        <DropdownMenuItem
          disabled={signingOut}
          onSelect={() => {
            setSigningOut(true);
            signOut().finally(() => setSigningOut(false));
          }}
        >
          <LogOut aria-hidden />
          {me.is_guest ? "Leave guest session" : "Sign out"}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

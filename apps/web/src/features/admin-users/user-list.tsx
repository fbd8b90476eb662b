import type { AdminUser } from "@hearth/contract";
import { roleTitle } from "@hearth/contract/labels";
import { Pencil, ShieldCheck } from "lucide-react";
import { useMe } from "../../lib/session.ts";
import { Avatar } from "../../ui/avatar.tsx";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import {
  joinedOn,
  restrictionLabel,
  restrictionTone,
  statusLabel,
  statusTone,
  userHandle,
} from "./labels.ts";
import { canViewAs, ViewAsButton } from "./view-as.tsx";

interface UserListProps {
  users: AdminUser[];
  onEdit: (user: AdminUser) => void;
}

function UserIdentity({ user }: { user: AdminUser }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar name={user.name} size="sm" />
      <div className="flex min-w-0 flex-col">
        <span className="flex items-center gap-2 font-medium">
          <span className="truncate">{user.name}</span>
          {user.is_admin ? (
            <Badge tone="accent">
              <ShieldCheck aria-hidden className="size-3" />
              Admin
            </Badge>
          ) : null}
          {user.is_guest ? <Badge>Guest</Badge> : null}
        </span>
        <span className="truncate text-sm text-muted">{userHandle(user)}</span>
      </div>
    </div>
  );
}

/** Edit, and View as for the members an administrator may view the site as. */
function UserActions({ user, onEdit }: { user: AdminUser; onEdit: (user: AdminUser) => void }) {
  const me = useMe();
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {canViewAs(user, me?.id) ? <ViewAsButton user={user} /> : null}
      <Button variant="outline" size="sm" onClick={() => onEdit(user)} aria-label={`Edit ${user.name}`}>
        <Pencil aria-hidden />
        Edit
      </Button>
    </div>
  );
}

/** A table on wide screens; stacked cards on phones, where a table would scroll sideways. */
export function UserList({ users, onEdit }: UserListProps) {
  return (
    <>
      <div className="hidden overflow-hidden rounded-xl border border-border bg-surface md:block">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-border bg-surface-2/50 text-xs tracking-wider text-muted uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                User
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Plan
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Status
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Restriction
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Joined
              </th>
              <th scope="col" className="px-4 py-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {users.map((user) => (
              <tr key={user.id} className="transition hover:bg-surface-2/40">
                <td className="max-w-72 px-4 py-3">
                  <UserIdentity user={user} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{roleTitle[user.role]}</td>
                <td className="px-4 py-3">
                  <Badge tone={statusTone[user.status]}>{statusLabel[user.status]}</Badge>
                </td>
                <td className="px-4 py-3">
                  <Badge tone={restrictionTone[user.restriction]}>{restrictionLabel[user.restriction]}</Badge>
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-muted">{joinedOn(user)}</td>
                <td className="px-4 py-3 text-right">
                  <UserActions user={user} onEdit={onEdit} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul className="flex flex-col gap-3 md:hidden">
        {users.map((user) => (
          <li key={user.id} className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
            <div className="flex items-start justify-between gap-3">
              <UserIdentity user={user} />
              <UserActions user={user} onEdit={onEdit} />
            </div>
            <div className="flex flex-wrap gap-1.5">
              <Badge tone="accent">{roleTitle[user.role]}</Badge>
              <Badge tone={statusTone[user.status]}>{statusLabel[user.status]}</Badge>
              {user.restriction === "none" ? null : (
                <Badge tone={restrictionTone[user.restriction]}>{restrictionLabel[user.restriction]}</Badge>
              )}
            </div>
            <p className="text-xs text-muted">Joined {joinedOn(user)}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

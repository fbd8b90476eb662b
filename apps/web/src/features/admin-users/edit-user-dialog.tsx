import {
  type AccountStatus,
  type AdminUser,
  type AdminUserUpdate,
  accountStatus,
  type Restriction,
  restriction,
  type SubscriberRole,
  subscriberRole,
} from "@hearth/contract";
import { roleTitle } from "@hearth/contract/labels";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Select } from "../../ui/input.tsx";
import { Field } from "../../ui/label.tsx";
import { restrictionLabel, statusLabel, userHandle } from "./labels.ts";
import { ResetLinkSection } from "./reset-link.tsx";
import { useUpdateAdminUser } from "./use-admin-users.ts";

interface EditUserDialogProps {
  user: AdminUser;
  currentUserId: string | undefined;
  onDone: () => void;
}

/** Only the fields that changed are sent (AdminUserUpdate is a partial update). */
function changesBetween(user: AdminUser, draft: Required<AdminUserUpdate>): AdminUserUpdate {
  const changes: AdminUserUpdate = {};
  if (draft.role !== user.role) changes.role = draft.role;
  if (draft.status !== user.status) changes.status = draft.status;
  if (draft.restriction !== user.restriction) changes.restriction = draft.restriction;
  if (draft.is_admin !== user.is_admin) changes.is_admin = draft.is_admin;
  return changes;
}

/** Content of the edit dialog; the caller owns <Dialog open>. */
export function EditUserDialog({ user, currentUserId, onDone }: EditUserDialogProps) {
  const update = useUpdateAdminUser(currentUserId);
  const [draft, setDraft] = useState<Required<AdminUserUpdate>>({
    role: user.role,
    status: user.status,
    restriction: user.restriction,
    is_admin: user.is_admin,
  });
  const isSelf = user.id === currentUserId;
  const changes = changesBetween(user, draft);
  const changed = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    update.mutate({ id: user.id, changes }, { onSuccess: onDone });
  };

  return (
    <DialogContent title={`Edit ${user.name}`} description={userHandle(user)}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        {update.error ? <Banner tone="danger">{errorMessage(update.error)}</Banner> : null}
        <Field id="edit-role" label="Plan (role)">
          <Select
            id="edit-role"
            value={draft.role}
            onChange={(event) => setDraft({ ...draft, role: event.target.value as SubscriberRole })}
          >
            {subscriberRole.options.map((role) => (
              <option key={role} value={role}>
                {roleTitle[role]} ({role})
              </option>
            ))}
          </Select>
        </Field>
        <Field id="edit-status" label="Subscription status">
          <Select
            id="edit-status"
            value={draft.status}
            onChange={(event) => setDraft({ ...draft, status: event.target.value as AccountStatus })}
          >
            {accountStatus.options.map((status) => (
              <option key={status} value={status}>
                {statusLabel[status]}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="edit-restriction"
          label="Restriction"
          hint={
            isSelf
              ? "You can't restrict your own account."
              : "Suspended and temporarily restricted accounts see only a restriction page."
          }
        >
          <Select
            id="edit-restriction"
            aria-describedby="edit-restriction-hint"
            disabled={isSelf}
            value={draft.restriction}
            onChange={(event) => setDraft({ ...draft, restriction: event.target.value as Restriction })}
          >
            {restriction.options.map((value) => (
              <option key={value} value={value}>
                {restrictionLabel[value]}
              </option>
            ))}
          </Select>
        </Field>
        <div className="flex flex-col gap-1.5">
          <label className="flex cursor-pointer items-center gap-3 text-sm font-medium has-disabled:cursor-not-allowed has-disabled:opacity-60">
            <input
              type="checkbox"
              className="size-4 accent-(--brand-accent)"
              checked={draft.is_admin}
              disabled={isSelf}
              aria-describedby="edit-admin-hint"
              onChange={(event) => setDraft({ ...draft, is_admin: event.target.checked })}
            />
            Administrator
          </label>
          <p id="edit-admin-hint" className="pl-7 text-sm text-muted">
            {isSelf
              ? "You can't remove your own admin rights; ask another admin."
              : "Admins can open this page and change any account."}
          </p>
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={!changed} loading={update.isPending}>
            Save changes
          </Button>
        </DialogFooter>
      </form>
      <ResetLinkSection user={user} />
    </DialogContent>
  );
}

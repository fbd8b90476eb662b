import { type AdminUser, impersonationEndpoints } from "@hearth/contract";
import { useMutation } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { useSessionActions } from "../auth/use-session-actions.ts";
import { userHandle } from "./labels.ts";

/** Administrators and guests cannot be viewed (the server refuses them too). */
export const canViewAs = (user: AdminUser, currentUserId: string | undefined) =>
  user.id !== currentUserId && !user.is_admin && !user.is_guest;

/**
 * "View as": after a confirmation, the site as this member sees it, read-only, for up to an hour
 * (accounts-billing-admin §2.2, the impersonation banner). The start is written to the audit log.
 */
export function ViewAsButton({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const { signedIn } = useSessionActions();
  const start = useMutation({
    mutationFn: () => call(impersonationEndpoints.start, { params: { id: user.id } }),
    onSuccess: () => signedIn("/"),
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) start.reset();
      }}
    >
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={`View as ${user.name}`}>
        <Eye aria-hidden />
        View as
      </Button>
      {open ? (
        <DialogContent
          title={`View the site as ${user.name}?`}
          description={`You will see what ${userHandle(user)} sees, read-only, for up to an hour. Nothing can be changed while viewing, and this is recorded in the audit log.`}
        >
          {start.error ? <Banner tone="danger">{errorMessage(start.error)}</Banner> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button loading={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
              <Eye aria-hidden />
              View as {user.name}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

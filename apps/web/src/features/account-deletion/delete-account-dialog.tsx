import { accountLifecycleEndpoints, DELETE_COUNTDOWN_SECONDS } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button, buttonClass } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { useSessionActions } from "../auth/use-session-actions.ts";
import { clearLocalData } from "./clear-local-data.ts";

/**
 * Remove Account (accounts-billing-admin §2.2): a warning first while a subscription is active
 * (Manage Subscription / Proceed), then a confirm button that counts down 6 s, one step a second,
 * and is disabled meanwhile; closing the dialog resets it. Deletion signs out and clears local data.
 */
export function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open, so every opening starts from the first step and a full countdown. */}
      {open ? <DeleteAccountContent /> : null}
    </Dialog>
  );
}

function DeleteAccountContent() {
  const me = useMe();
  const subscribed = me !== null && me.status === "active" && me.role !== "free";
  const [proceeded, setProceeded] = useState(false);
  if (subscribed && !proceeded) {
    return (
      <DialogContent
        title="You have an active subscription"
        description="Deleting your account does not cancel your subscription. Manage it first so you are not charged again."
      >
        <DialogFooter>
          <Link to="/portal" className={buttonClass("outline")}>
            Manage Subscription
          </Link>
          <Button variant="danger" onClick={() => setProceeded(true)}>
            Proceed
          </Button>
        </DialogFooter>
      </DialogContent>
    );
  }
  return <ConfirmDeletion />;
}

function ConfirmDeletion() {
  const { refreshSession } = useSessionActions();
  const [left, setLeft] = useState(DELETE_COUNTDOWN_SECONDS);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const remove = async () => {
    setDeleting(true);
    setError(null);
    try {
      await call(accountLifecycleEndpoints.deleteAccount, {});
      clearLocalData();
      await refreshSession();
      // A full load, so nothing of the deleted account stays in memory.
      window.location.assign("/");
    } catch (e) {
      setError(errorMessage(e));
      setDeleting(false);
    }
  };

  return (
    <DialogContent
      title="Delete your account?"
      description="Your chats, personas, favourites, ratings and chatbots are deleted for good. This cannot be undone."
    >
      {error ? <Banner tone="danger">{error}</Banner> : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button variant="danger" disabled={left > 0} loading={deleting} onClick={remove}>
          {left > 0 ? `Delete account (${left})` : "Delete account"}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}

import { accountLifecycleEndpoints, DELETE_COUNTDOWN_SECONDS } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { useCallback, useEffect, useRef, useState } from "react";
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
 * (Manage Subscription / Proceed), then a confirm button that, pressed, counts down 6 s, one step a
 * second, disabled meanwhile, and deletes at 0; closing the dialog resets it. Deletion signs out and
 * clears local data.
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

/**
 * "The confirm button starts a 6-second countdown (one step per second), disabled during it; at 0
 * deletion runs": a last moment to change one's mind by closing the dialog, which unmounts this
 * and so resets the countdown.
 */
function ConfirmDeletion() {
  const { refreshSession } = useSessionActions();
  /** Seconds left once confirmed; null until the confirm button is pressed. */
  const [left, setLeft] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = useCallback(async (): Promise<boolean> => {
    setDeleting(true);
    setError(null);
    try {
      await call(accountLifecycleEndpoints.deleteAccount, {});
      clearLocalData();
      await refreshSession();
      // A full load, so nothing of the deleted account stays in memory.
      window.location.assign("/");
      return true;
    } catch (e) {
      setError(errorMessage(e));
      setDeleting(false);
      setLeft(null);
      return false;
    }
  }, [refreshSession]);

  // Once per confirmation, even if the effect runs again at 0.
  const fired = useRef(false);
  useEffect(() => {
    if (left === null) return;
    if (left <= 0) {
      if (!fired.current) {
        fired.current = true;
        // After a failure (left back to null) the button may confirm again.
        void remove().then((ok) => {
          if (!ok) fired.current = false;
        });
      }
      return;
    }
    const timer = setTimeout(() => setLeft((s) => (s === null ? s : s - 1)), 1000);
    return () => clearTimeout(timer);
  }, [left, remove]);

  const counting = left !== null && left > 0;
  return (
    <DialogContent
      title="Delete your account?"
      description="Your chats, personas, favourites, ratings and chatbots are deleted for good. This cannot be undone."
    >
      {error ? <Banner tone="danger">{error}</Banner> : null}
      {counting ? (
        <p className="text-sm text-muted">
          Your account is deleted when the countdown ends. Cancel to keep it.
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button
          variant="danger"
          disabled={counting}
          loading={deleting}
          onClick={() => setLeft(DELETE_COUNTDOWN_SECONDS)}
        >
          {counting ? `Delete account (${left})` : "Delete account"}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}

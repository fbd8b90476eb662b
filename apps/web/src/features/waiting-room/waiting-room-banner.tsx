import { roleTitle } from "@hearth/contract/labels";
import { Link } from "@tanstack/react-router";
import { ChevronRight, Clock, Hourglass, X } from "lucide-react";
import { useState } from "react";
import { useAppSettings } from "../../lib/app-settings.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { accessIdleMinutes, bannerWords, type WaitingRoomView } from "./waiting-room.ts";

/** Id of the banner's reason, which the disabled send button is described by. */
export const waitingReasonId = "waiting-room-reason";

/** Said on the disabled send button (its title and description). */
export const waitingSendReason = "You can send once it's your turn in the waiting room.";

/**
 * The waiting room banner of §2, at the bottom above the input: "Waiting Room Position N" and,
 * from a minute on, "Estimated Time Left M min". It is a button: it opens the Waiting queue modal.
 */
export function WaitingRoomBanner({ view, skips }: { view: WaitingRoomView; skips: boolean }) {
  const [open, setOpen] = useState(false);
  const words = bannerWords(view);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {/* Polite: a new place in line is read out without interrupting. */}
      <div role="status" className="contents">
        <button
          type="button"
          onClick={() => setOpen(true)}
          data-waiting-room-banner
          aria-haspopup="dialog"
          className="flex w-full items-center gap-3 rounded-xl border border-info/40 bg-info-soft px-3.5 py-2.5 text-left text-sm transition hover:border-info/70 hover:bg-info-soft/70"
        >
          <Clock aria-hidden className="size-4 shrink-0 text-info" />
          <span className="flex min-w-0 flex-1 flex-col gap-x-4 sm:flex-row sm:flex-wrap">
            <span className="font-medium text-fg">{words.position}</span>
            {words.time ? <span className="text-fg/90">{words.time}</span> : null}
            <span id={waitingReasonId} className="sr-only">
              {waitingSendReason}
            </span>
          </span>
          <span className="flex shrink-0 items-center gap-0.5 text-xs text-muted">
            <span className="hidden sm:inline">Details</span>
            <ChevronRight aria-hidden className="size-4" />
          </span>
        </button>
      </div>
      <WaitingQueueDialog view={view} skips={skips} />
    </Dialog>
  );
}

function WaitingQueueDialog({ view, skips }: { view: WaitingRoomView; skips: boolean }) {
  const idleMinutes = accessIdleMinutes(useAppSettings().limits.waiting_room);
  return (
    <DialogContent
      title="Waiting queue"
      description="Lots of people are chatting right now, so chats take turns. You'll be let in as soon as a place opens up."
    >
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div className="flex flex-col gap-1 rounded-lg border border-border bg-surface-2 px-3.5 py-3">
          <dt className="text-muted">Your position</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-waiting-position>
            {view.position ?? "—"}
          </dd>
        </div>
        <div className="flex flex-col gap-1 rounded-lg border border-border bg-surface-2 px-3.5 py-3">
          <dt className="text-muted">Estimated time left</dt>
          <dd className="text-2xl font-semibold tabular-nums">
            {view.minutesLeft === null ? "Under a minute" : `${view.minutesLeft} min`}
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-col gap-3 text-sm text-fg/90">
        <p>
          Keep this chat open: the banner updates by itself, and you can send as soon as it's your turn. Until
          then sending, regenerating, reporting and rating replies are paused.
        </p>
        <p>
          Once you're in, your access lasts while you chat. After {idleMinutes} minutes without chatting it
          lapses and you go back in line.
        </p>
        {skips ? null : (
          <p className="flex items-start gap-2 rounded-lg bg-accent-soft px-3.5 py-3">
            <Hourglass aria-hidden className="mt-0.5 size-4 shrink-0 text-accent-text" />
            <span>
              Members on a plan, {roleTitle.minimal} included, skip the line and chat straight away.
            </span>
          </p>
        )}
      </div>
      <DialogFooter>
        {skips ? null : (
          <Button asChild variant="outline">
            <Link to="/subscribe">See plans: {roleTitle.minimal} skips the line</Link>
          </Button>
        )}
        <DialogClose asChild>
          <Button>Keep waiting</Button>
        </DialogClose>
      </DialogFooter>
    </DialogContent>
  );
}

/** `expired` (said once): why the member is back in line. Shown above the waiting banner. */
export function ExpiredNotice({ onDismiss }: { onDismiss: () => void }) {
  const idleMinutes = accessIdleMinutes(useAppSettings().limits.waiting_room);
  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-xl border border-warning/40 bg-warning-soft px-3.5 py-2 text-sm"
    >
      <p className="min-w-0 flex-1">
        Your spot expired after {idleMinutes} minutes without chatting; you're back in line.
      </p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss notice"
        className="rounded-md p-1.5 text-muted transition hover:bg-surface-2 hover:text-fg [&_svg]:size-4"
      >
        <X aria-hidden />
      </button>
    </div>
  );
}

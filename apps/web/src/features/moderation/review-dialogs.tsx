import type { AdminReview } from "@hearth/contract";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { TextArea } from "../characters/form-controls.tsx";
import { type ReviewAction, useReviewAction } from "./api.ts";
import { rejectReasons } from "./labels.ts";

interface DialogProps {
  review: AdminReview | null;
  onOpenChange: (open: boolean) => void;
  onDone: (message: string) => void;
}

function useRun(onDone: (message: string) => void, close: () => void) {
  const action = useReviewAction();
  const run = (a: ReviewAction, message: string) =>
    action.mutate(a, {
      onSuccess: () => {
        close();
        onDone(message);
      },
    });
  return { action, run };
}

/**
 * Send a bot back (fix_required): the reasons and the description are what its creator reads in
 * the editor banner ('Rejected', or 'Reported' after a member's report).
 */
export function RejectDialog({ review, onOpenChange, onDone }: DialogProps) {
  const [reasons, setReasons] = useState<string[]>([]);
  const [other, setOther] = useState("");
  const [description, setDescription] = useState("");
  const close = () => {
    setReasons([]);
    setOther("");
    setDescription("");
    action.reset();
    onOpenChange(false);
  };
  const { action, run } = useRun(onDone, close);
  const chosen = [...reasons, ...(other.trim() ? [other.trim()] : [])];

  return (
    <Dialog open={review !== null} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      {review ? (
        <DialogContent
          title={`Send ${review.character.name} back to its creator`}
          description="It is hidden from browse until the creator fixes it and a moderator approves it again."
        >
          <form
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (chosen.length === 0) return;
              run(
                {
                  kind: "update",
                  characterId: review.character.id,
                  reviewId: review.id,
                  change: {
                    moderation_status: "fix_required",
                    reason_for_moderation: chosen,
                    action_taken_description: description.trim() || null,
                  },
                },
                `${review.character.name} was sent back to its creator.`,
              );
            }}
          >
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">Reasons</legend>
              {rejectReasons.map((reason) => (
                <label key={reason} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-accent"
                    checked={reasons.includes(reason)}
                    onChange={(event) =>
                      setReasons((now) =>
                        event.target.checked ? [...now, reason] : now.filter((r) => r !== reason),
                      )
                    }
                  />
                  {reason}
                </label>
              ))}
            </fieldset>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="reject-other">Another reason</Label>
              <Input
                id="reject-other"
                value={other}
                maxLength={500}
                onChange={(e) => setOther(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="reject-description">What the creator should change</Label>
              <TextArea
                id="reject-description"
                value={description}
                maxLength={2000}
                onChange={(e) => setDescription(e.target.value)}
              />
            </div>
            {action.error ? <Banner tone="danger">{errorMessage(action.error)}</Banner> : null}
            <DialogFooter className="mt-2">
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" loading={action.isPending} disabled={chosen.length === 0}>
                Send back
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** Deleting from the review table closes the bot's open reviews with action_taken deleted. */
export function DeleteReviewedDialog({ review, onOpenChange, onDone }: DialogProps) {
  const close = () => {
    action.reset();
    onOpenChange(false);
  };
  const { action, run } = useRun(onDone, close);
  return (
    <Dialog open={review !== null} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      {review ? (
        <DialogContent
          title={`Delete ${review.character.name}?`}
          description="The chatbot is removed for everyone and its open reviews are closed as deleted."
        >
          {action.error ? <Banner tone="danger">{errorMessage(action.error)}</Banner> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="danger"
              loading={action.isPending}
              onClick={() =>
                run(
                  { kind: "delete", characterId: review.character.id, reviewId: review.id },
                  `${review.character.name} was deleted.`,
                )
              }
            >
              Delete character
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

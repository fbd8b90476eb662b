import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { rateVoice } from "./api.ts";

const levels = ["Terrible", "Bad", "Great", "Fantastic"] as const;

/** Rate voice quality (§2 message menu): how the spoken reply sounded, 1-4 like message ratings. */
export function VoiceRatingDialog({ messageId, onClose }: { messageId: string | null; onClose: () => void }) {
  const rate = useMutation({ mutationFn: (rating: number) => rateVoice(messageId as string, rating) });
  return (
    <Dialog
      open={messageId !== null}
      onOpenChange={(open) => {
        if (!open) {
          rate.reset();
          onClose();
        }
      }}
    >
      {messageId ? (
        <DialogContent title="Rate voice quality" description="How did the voice sound on this reply?">
          {rate.isSuccess ? (
            <p role="status" className="text-sm">
              Thank you! Your rating helps us pick better voices.
            </p>
          ) : (
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              {levels.map((label, i) => (
                <Button
                  key={label}
                  variant="outline"
                  disabled={rate.isPending}
                  onClick={() => rate.mutate(i + 1)}
                >
                  {label}
                </Button>
              ))}
            </div>
          )}
          {rate.isError ? (
            <p role="alert" className="text-sm text-danger">
              {errorMessage(rate.error)}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">{rate.isSuccess ? "Close" : "Cancel"}</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

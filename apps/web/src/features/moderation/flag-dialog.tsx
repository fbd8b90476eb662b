import { FLAG_COMMENT_MAX, flagLabels } from "@hearth/contract";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Label } from "../../ui/label.tsx";
import { TextArea } from "../characters/form-controls.tsx";
import { reportMessage } from "./api.ts";

export interface FlaggedMessage {
  messageId: string;
  conversationId: string;
  characterId: string;
}

type Step = "select" | "comment" | "sending" | "done" | "error";

interface FlagDialogProps {
  message: FlaggedMessage | null;
  onOpenChange: (open: boolean) => void;
}

/**
 * The message report flow (chat-and-characters §4 "Report flow"): pick a reason (Next is
 * disabled until one is chosen), then add a comment (the button reads Skip while it is empty,
 * Done once written), then thanks; a failure says why and offers Close.
 */
export function FlagDialog({ message, onOpenChange }: FlagDialogProps) {
  const [step, setStep] = useState<Step>("select");
  const [label, setLabel] = useState<(typeof flagLabels)[number] | null>(null);
  const [comment, setComment] = useState("");
  const [failure, setFailure] = useState("");

  const close = () => {
    setStep("select");
    setLabel(null);
    setComment("");
    setFailure("");
    onOpenChange(false);
  };

  const send = async () => {
    if (!message || !label) return;
    setStep("sending");
    try {
      await reportMessage({
        message_id: message.messageId,
        conversation_id: message.conversationId,
        character_id: message.characterId,
        label,
        comment: comment.trim(),
      });
      setStep("done");
    } catch (caught) {
      setFailure(errorMessage(caught));
      setStep("error");
    }
  };

  const description =
    step === "select"
      ? "Why are you reporting this message?"
      : step === "done" || step === "error"
        ? undefined
        : "Anything the moderators should know? You can skip this.";

  return (
    <Dialog open={message !== null} onOpenChange={(open) => (open ? onOpenChange(true) : close())}>
      {message ? (
        <DialogContent title="Report message" description={description}>
          {step === "select" ? (
            <fieldset className="flex flex-col gap-2">
              <legend className="sr-only">Reason</legend>
              {flagLabels.map((option) => (
                <label
                  key={option}
                  className="flex cursor-pointer items-center gap-3 rounded-lg border border-border px-3 py-2.5 text-sm has-[:checked]:border-accent has-[:checked]:bg-accent-soft"
                >
                  <input
                    type="radio"
                    name="flag-reason"
                    className="size-4 accent-accent"
                    checked={label === option}
                    onChange={() => setLabel(option)}
                  />
                  {option}
                </label>
              ))}
            </fieldset>
          ) : step === "comment" || step === "sending" ? (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="flag-comment">Comment</Label>
              <TextArea
                id="flag-comment"
                value={comment}
                maxLength={FLAG_COMMENT_MAX}
                disabled={step === "sending"}
                onChange={(event) => setComment(event.target.value)}
              />
            </div>
          ) : step === "done" ? (
            <Banner tone="success" title="Thank you">
              The moderators will look at this message within 7 days.
            </Banner>
          ) : (
            <Banner tone="danger" title="Your report wasn't sent">
              {failure}
            </Banner>
          )}
          <DialogFooter>
            {step === "select" ? (
              <Button disabled={!label} onClick={() => setStep("comment")}>
                Next
              </Button>
            ) : step === "comment" || step === "sending" ? (
              <Button loading={step === "sending"} onClick={() => void send()}>
                {comment.trim() ? "Done" : "Skip"}
              </Button>
            ) : (
              <Button onClick={close}>Close</Button>
            )}
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

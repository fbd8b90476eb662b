import { imageTrainingEndpoints, type TrainingStatus } from "@hearth/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ImagePlus } from "lucide-react";
import { isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";

/** §8's text for a failed submit; the server's own words are added when they say more (the daily limit, no service). */
export const TRAINING_ERROR = "There was an error submitting the training request.";

export const trainingKey = (characterId: string) => ["characters", characterId, "training"] as const;

const queueText = (queued: number) =>
  `Your chatbot is in the training queue. There ${queued === 1 ? "is 1 training request" : `are ${queued} training requests`} in the queue.`;

function StatusBody({ status }: { status: TrainingStatus }) {
  switch (status.lora_status) {
    case "pending":
      return (
        <Banner tone="info" title="Training queued">
          {queueText(status.queued)} A run takes up to 10 minutes, or up to a few days when the queue is long.
          You can keep chatting meanwhile.
        </Banner>
      );
    case "ready":
      return (
        <Banner tone="success" title="Ready for images">
          This chatbot has been trained. Images in your chats will look like it.
        </Banner>
      );
    default:
      return (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            Before this chatbot can appear in images, an image model learns what it looks like from its
            avatar. This is done once per chatbot and helps everyone who chats with it.
          </p>
          <p className="text-muted">
            A run takes up to 10 minutes, or up to a few days when the queue is long. You can request training{" "}
            {status.daily_limit} times a day ({status.requests_today} used today).
          </p>
          {status.lora_status === "failed" ? (
            <Banner tone="warning">The last training run did not finish. You can submit it again.</Banner>
          ) : null}
        </div>
      );
  }
}

/** The Chatbot Image Training modal (§2, §4 Image training): explains, submits, then shows the queue. */
export function ImageTrainingDialog({
  characterId,
  open,
  onOpenChange,
}: {
  characterId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: trainingKey(characterId),
    queryFn: ({ signal }) => call(imageTrainingEndpoints.status, { params: { id: characterId }, signal }),
    enabled: open,
  });
  const submit = useMutation({
    mutationFn: () => call(imageTrainingEndpoints.train, { body: { character_id: characterId } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(trainingKey(characterId), answer);
      void queryClient.invalidateQueries({ queryKey: ["characters", characterId] });
    },
  });
  const current = status.data;
  const canSubmit =
    current?.service === true &&
    (current.lora_status === "not_trained" || current.lora_status === "failed") &&
    current.requests_today < current.daily_limit;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) submit.reset();
        onOpenChange(next);
      }}
    >
      {open ? (
        <DialogContent
          title="Chatbot Image Training"
          description="Teach the image model what this chatbot looks like."
        >
          {status.isPending ? (
            <div className="flex justify-center py-6">
              <Spinner label="Loading training status" />
            </div>
          ) : status.isError ? (
            <Banner tone="danger">Could not load this chatbot's training status. Please try again.</Banner>
          ) : current ? (
            <div className="flex flex-col gap-3">
              {current.service ? (
                <StatusBody status={current} />
              ) : (
                <Banner tone="info">
                  This server has no image training service; its images need no training.
                </Banner>
              )}
              {submit.isSuccess ? (
                <p role="status" className="text-sm font-medium">
                  Training request submitted. Queue: {submit.data.queued}
                </p>
              ) : null}
              {submit.isError ? (
                <Banner tone="danger">
                  {TRAINING_ERROR}
                  {isApiRequestError(submit.error) && submit.error.status < 500
                    ? ` ${submit.error.message}`
                    : null}
                </Banner>
              ) : null}
              {current.service &&
              !canSubmit &&
              current.lora_status !== "pending" &&
              current.lora_status !== "ready" ? (
                <p className="text-sm text-muted">
                  You have used today's training requests. Please try again tomorrow.
                </p>
              ) : null}
            </div>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">{canSubmit ? "Cancel" : "Done"}</Button>
            </DialogClose>
            {canSubmit ? (
              <Button loading={submit.isPending} onClick={() => submit.mutate()}>
                <ImagePlus aria-hidden className="size-4" />
                Start training
              </Button>
            ) : null}
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

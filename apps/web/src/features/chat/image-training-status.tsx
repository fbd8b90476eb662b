import { imageTrainingEndpoints, type TrainingStatus } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { ImagePlus } from "lucide-react";
import { useState } from "react";
import { call } from "../../lib/client.ts";
import { useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { ImageTrainingDialog, trainingKey } from "./image-training-dialog.tsx";

const words: Record<TrainingStatus["lora_status"], string> = {
  not_trained: "Not trained for images yet: pictures in chats wait until it is.",
  pending: "Training for images is queued. Pictures in chats start once it is done.",
  ready: "Trained for images: pictures in chats look like this chatbot.",
  failed: "The last image training did not finish. It can be asked for again.",
};

/**
 * The bot's image training (lora_status) where its creator manages it, the Chatbot Editor. Shown
 * only on servers with a training service; I'm All In members can start training from here too.
 */
export function ImageTrainingStatus({ characterId }: { characterId: string }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  const status = useQuery({
    queryKey: trainingKey(characterId),
    queryFn: ({ signal }) => call(imageTrainingEndpoints.status, { params: { id: characterId }, signal }),
  });
  const current = status.data;
  if (!current?.service) return null;
  const canTrain =
    me?.permissions.includes("image_training") &&
    (current.lora_status === "not_trained" || current.lora_status === "failed");
  return (
    <>
      <Banner
        tone={
          current.lora_status === "failed" ? "warning" : current.lora_status === "ready" ? "success" : "info"
        }
        title="Image training"
        action={
          canTrain ? (
            <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
              <ImagePlus aria-hidden className="size-4" />
              Train for images
            </Button>
          ) : undefined
        }
      >
        {words[current.lora_status]}
      </Banner>
      <ImageTrainingDialog characterId={characterId} open={open} onOpenChange={setOpen} />
    </>
  );
}

import type { Me } from "@hearth/contract";
import { ImagePlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { ApiRequestError } from "../../lib/api.ts";
import { cn } from "../../ui/cn.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { ImageTrainingDialog } from "./image-training-dialog.tsx";
import { type PaidPlan, PlanRequiredDialog } from "./plan-required-dialog.tsx";

type Modal = { kind: "plan"; plan: PaidPlan; feature: string } | { kind: "training" } | null;

/**
 * The Image button of the input bar (chat-and-characters §4): without conversation_images the
 * True Supporter plan modal; with it, a picture is asked for, and the server's answer decides
 * the rest: a bot not ready for images opens training for image_training holders, else the
 * I'm All In plan modal; a private bot without I'm All In, that plan's modal. Whether a bot is
 * ready is the server's one rule, so the client never guesses it.
 */
export function ImageButton({
  me,
  characterId,
  className,
  disabled,
  onImage,
}: {
  me: Me | null;
  characterId: string;
  className: string;
  disabled: boolean;
  /** Starts the picture; `onRefused` answers true for the refusals handled here. */
  onImage: (onRefused: (error: ApiRequestError) => boolean) => void;
}) {
  const [modal, setModal] = useState<Modal>(null);
  const permissions = me?.permissions ?? [];
  // Progress: from the click until the chat is idle again (the bar is off while a picture is made).
  const [making, setMaking] = useState(false);
  const sawBusy = useRef(false);
  useEffect(() => {
    if (!making) return;
    if (disabled) sawBusy.current = true;
    else if (sawBusy.current) {
      sawBusy.current = false;
      setMaking(false);
    }
  }, [making, disabled]);

  const onRefused = (error: ApiRequestError) => {
    if (error.errorType === "imageTrainingNeeded") {
      setMaking(false);
      setModal(
        permissions.includes("image_training")
          ? { kind: "training" }
          : { kind: "plan", plan: "premium", feature: "Image training for this chatbot" },
      );
      return true;
    }
    if (error.errorType === "planRequired") {
      setMaking(false);
      const premium = /I'm All In/.test(error.message) && !/True Supporter/.test(error.message);
      setModal({
        kind: "plan",
        plan: premium ? "premium" : "basic",
        feature: premium ? "Images on private chatbots" : "Images in chats",
      });
      return true;
    }
    return false;
  };

  const onClick = () => {
    if (!permissions.includes("conversation_images")) {
      setModal({ kind: "plan", plan: "basic", feature: "Images in chats" });
      return;
    }
    sawBusy.current = false;
    setMaking(true);
    onImage(onRefused);
  };

  return (
    <>
      <button
        type="button"
        className={cn(className, "text-muted hover:bg-surface-2 hover:text-accent-text")}
        aria-label="Make an image"
        title="Make an image"
        disabled={disabled}
        onClick={onClick}
      >
        {making ? <Spinner size="sm" label="Making an image…" /> : <ImagePlus aria-hidden />}
      </button>
      <PlanRequiredDialog
        plan={modal?.kind === "plan" ? modal.plan : null}
        feature={modal?.kind === "plan" ? modal.feature : ""}
        onClose={() => setModal(null)}
      />
      <ImageTrainingDialog
        characterId={characterId}
        open={modal?.kind === "training"}
        onOpenChange={(open) => !open && setModal(null)}
      />
    </>
  );
}

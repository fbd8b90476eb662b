import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Who may ask for a bot's image training (chat-and-characters §4 Image button, §6 image_training
 * needs I'm All In). Not only the creator: §4 offers training from the Image button to every
 * image_training holder whose bot is not ready, and the Image button is in every chat with the
 * bot. The LoRA belongs to the bot (its lora_status), so one member's request serves everyone who
 * chats with it. The bot must be one the member may chat with (`chattableCharacter`: else the
 * usual 404 invalidAccess).
 */

/** `error_type` of a refusal the client answers with the sign-up prompt (guests). */
export const TRAINING_SIGN_UP = "training_sign_up";
/** `error_type` of a refusal the client answers with the I'm All In Plan Required modal. */
export const TRAINING_UPGRADE = "training_upgrade";

export const noTrainingService = () =>
  new HttpError(
    503,
    "unavailable",
    "This server has no image training service, so chatbots need no training: their images are drawn without it.",
    { errorType: "training_off" },
  );

/** Signed in (guests too: they hear why not), for reading a bot's training state. */
export function assertCanReadTraining(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  return viewer;
}

/** Signed in, not restricted, not a guest, holding image_training (I'm All In; administrators). */
export function assertCanTrain(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest) {
    throw new HttpError(
      403,
      "forbidden",
      "Sign up and choose the I'm All In plan to train chatbots for images.",
      {
        errorType: TRAINING_SIGN_UP,
      },
    );
  }
  if (!viewer.permissions.includes("image_training")) {
    throw new HttpError(
      403,
      "forbidden",
      "Image training comes with the I'm All In plan. Upgrade to train this chatbot for images.",
      { errorType: TRAINING_UPGRADE },
    );
  }
  return viewer;
}

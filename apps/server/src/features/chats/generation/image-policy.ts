import { HttpError } from "../../../http/errors.ts";
import { effectiveRole, isAdministrator, type Viewer } from "../../accounts/index.ts";
import type { CharacterRow } from "../../characters/index.ts";
import { IMAGES_README_SECTION, type ImageServices } from "./images.ts";

const PRIVATE = new Set(["private", "permanently_private"]);

/**
 * Who may have a picture made in a chat (chat-and-characters §4 Image button, §6): the
 * conversation_images permission (True Supporter, I'm All In); on a private bot also
 * conversation_images_v2 with I'm All In ("images on private bots", §6 tiers; accounts grant
 * conversation_images_v2 to True Supporter too, so the plan is checked here); a server with an
 * image model; and a bot ready for images (`readyForImages`, image training's rule). The chat's own rules (owner,
 * chattable) were checked before.
 */
export function assertMayMakeImages(
  viewer: Viewer,
  character: Pick<CharacterRow, "visibility" | "loraStatus">,
  images: ImageServices | undefined,
) {
  if (!viewer.permissions.includes("conversation_images")) {
    throw new HttpError(403, "forbidden", "Conversation images need the True Supporter or I'm All In plan.", {
      errorType: "planRequired",
    });
  }
  if (PRIVATE.has(character.visibility) && !mayImagePrivateBots(viewer)) {
    throw new HttpError(403, "forbidden", "Images on private chatbots need the I'm All In plan.", {
      errorType: "planRequired",
    });
  }
  if (!images?.backend) {
    throw new HttpError(
      503,
      "unavailable",
      isAdministrator(viewer)
        ? `This server has no image model. To add one, set IMAGES_BACKEND and IMAGES_BASE_URL (${IMAGES_README_SECTION}).`
        : "This server has no image model, so it cannot make pictures. Ask its administrator to add one.",
      { errorType: "noImageModel" },
    );
  }
  if (!images.readyForImages(character.loraStatus)) {
    throw new HttpError(409, "conflict", "This chatbot has to be trained for images first.", {
      errorType: "imageTrainingNeeded",
    });
  }
}

export function mayImagePrivateBots(viewer: Viewer): boolean {
  return (
    viewer.permissions.includes("conversation_images_v2") &&
    (isAdministrator(viewer) || effectiveRole(viewer) === "premium")
  );
}

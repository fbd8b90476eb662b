import { CHAT_IMPORT_MESSAGES_MAX } from "@hearth/contract";
import { HttpError } from "../../../http/errors.ts";

/**
 * How a chat file is refused. These live apart from the feature's policy so the reading thread
 * (reading-thread.ts) loads only the formats, not the accounts feature.
 */

export const unusableChatFile = (message: string) => new HttpError(400, "invalidRequest", message);

export const notAChatFile = () =>
  new HttpError(
    415,
    "unsupportedMediaType",
    "This is not a chat file. Choose a SillyTavern chat (.jsonl) or a chat exported from Hearth (.json).",
  );

/** The answer when a chat holds more messages than one import takes. */
export const tooManyMessages = () =>
  new HttpError(
    413,
    "tooManyMessages",
    `This chat has more than ${CHAT_IMPORT_MESSAGES_MAX.toLocaleString("en")} messages, the most one import takes.`,
  );

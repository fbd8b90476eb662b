import { LOREBOOKS_PER_USER_MAX, type LorebookErrorType } from "@hearth/contract";
import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Who may keep standalone lorebooks: any signed-in member, paid or free (a book is their own
 * writing, applied only to their own chats). Guests are asked to sign up; a restricted account
 * is refused with 403 `restricted` before anything is looked up or read.
 */
export function assertCanKeepLorebooks(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest) {
    throw refusal(403, "forbidden", "lorebooks_not_allowed", "Sign up to keep lorebooks.");
  }
  return viewer;
}

const refusal = (
  status: number,
  code: "forbidden" | "notFound" | "limitReached" | "invalidRequest",
  errorType: LorebookErrorType,
  message: string,
) => new HttpError(status, code, message, { errorType });

/** Another member's book answers exactly as a missing one. */
export const lorebookNotFound = () =>
  refusal(404, "notFound", "lorebook_not_found", "This lorebook does not exist or is not yours.");

export const conversationNotFound = () =>
  refusal(404, "notFound", "lorebook_not_found", "No such conversation.");

export const lorebookLimitReached = () =>
  refusal(
    409,
    "limitReached",
    "lorebook_limit_reached",
    `You can keep at most ${LOREBOOKS_PER_USER_MAX} lorebooks. Delete one to add another.`,
  );

export const unusableFile = (message: string) =>
  refusal(400, "invalidRequest", "lorebook_file_unusable", message);

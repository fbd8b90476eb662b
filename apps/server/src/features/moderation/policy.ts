import { forbidden, HttpError, notFound, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, assertPermission, type Viewer } from "../accounts/index.ts";

/**
 * Who may report and who moderates (accounts-billing-admin §2.1, §6). Reports need
 * report_character (members; not guests, limited or restricted accounts). The review table, the
 * moderator's changes and the audit log are administrators' (the `admin` permission, which a
 * restricted administrator loses).
 */

export const ALREADY_REPORTED_MESSAGE =
  "You have already reported this chatbot. The moderators will look at your report within 7 days.";
export const ALREADY_FLAGGED_MESSAGE =
  "You have already reported a message of this chatbot. The moderators will look at it within 7 days.";
export const MESSAGE_NOT_FOUND_MESSAGE = "This message does not exist or is not in one of your chats.";

export function assertCanReport(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized("Sign in to report a chatbot.");
  assertNotRestricted(viewer);
  if (viewer.isGuest) throw forbidden("Sign up to report a chatbot.");
  assertPermission(viewer, "report_character");
  return viewer;
}

/** Only the conversation's owner flags its messages; anyone else's answers 404 like a missing one. */
export function assertOwnsMessage(viewer: Viewer, message: { ownerId: string } | null): void {
  if (!message || message.ownerId !== viewer.id) throw notFound(MESSAGE_NOT_FOUND_MESSAGE);
}

export function assertCanModerate(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertPermission(viewer, "admin");
  return viewer;
}

export const alreadyReported = (message: string) => new HttpError(409, "conflict", message);

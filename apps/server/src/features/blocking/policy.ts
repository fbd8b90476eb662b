import { BLOCKED_BOT_CREATOR_MESSAGE } from "@hearth/contract";
import { forbidden, HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Who may block creators, and the refusal a blocked creator's bot answers (chat-and-characters
 * §6: Block Creator is hidden for guests; §8 blockedBotCreator).
 */

/** Signed in (401), not restricted (403 `restricted`), and a member: guests keep no blocks. */
export function assertCanBlock(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest) throw forbidden("Sign up free to block creators.");
  return viewer;
}

/** The creator cannot block themselves (§6). */
export function assertNotSelf(viewer: Viewer, creatorId: string): void {
  if (viewer.id === creatorId) throw new HttpError(400, "invalidRequest", "You cannot block yourself.");
}

/** 403, not 404: the bot exists and the viewer may see it; the client offers Unblock Creator. */
export const blockedBotCreator = () => new HttpError(403, "blockedBotCreator", BLOCKED_BOT_CREATOR_MESSAGE);

import { QUEUE_RETRY_AFTER_S } from "@hearth/contract";
import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, effectiveRole, type Viewer } from "../accounts/index.ts";

/**
 * Who waits, in what order (chat-and-characters §6, accounts-billing-admin §3-§4, issue 15):
 * skip_waiting_room (Get a Taste and above) and administrators never wait; in line, I'm All In
 * (priority_queue) comes first, then other paid plans, then free members, then guests. A paid
 * member is in line only when their permissions are withdrawn (a limited account): the order
 * then follows the plan they pay for.
 */

/** Signed in (401; guests count) and not restricted (403 `restricted`). */
export function assertMayAsk(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  return viewer;
}

export function skipsWaitingRoom(viewer: Viewer): boolean {
  return viewer.isAdmin || viewer.permissions.includes("skip_waiting_room");
}

/** An active (or cancelled, until its date) paid plan: what the room falls back on when it cannot be read. */
export function hasActiveSubscription(viewer: Viewer): boolean {
  return !viewer.isGuest && effectiveRole(viewer) !== "free";
}

/** Lower is admitted first. */
export function priorityOf(viewer: Viewer): number {
  if (viewer.isGuest) return 30;
  if (viewer.permissions.includes("priority_queue")) return 0;
  const role = effectiveRole(viewer);
  if (role === "premium") return 0;
  return role === "free" ? 20 : 10;
}

/** A chat the viewer may have while others wait: their own bot, or a chat of one message (its greeting). */
export function bypasses(
  viewer: Viewer,
  chat: { creatorUserId?: string | null; messageCount?: number; ownerUserId?: string },
): boolean {
  if (chat.creatorUserId && chat.creatorUserId === viewer.id) return true;
  return chat.ownerUserId === viewer.id && chat.messageCount !== undefined && chat.messageCount <= 1;
}

/** 429 `waitingRoom`, with Retry-After, for a generation by a member who has not been admitted. */
export function waitingRoomRefusal(): HttpError {
  return new HttpError(
    429,
    "waitingRoom",
    "Lots of people are chatting right now, so you're in the waiting room. We'll let you in as soon as there's room.",
    { retryAfter: QUEUE_RETRY_AFTER_S },
  );
}

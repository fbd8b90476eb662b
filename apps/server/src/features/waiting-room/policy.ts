import { QUEUE_RETRY_AFTER_S } from "@hearth/contract";
import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, effectiveRole, isAdministrator, type Viewer } from "../accounts/index.ts";

/**
 * Who waits, in what order (chat-and-characters §6, accounts-billing-admin §3-§4, issue 15):
 * skip_waiting_room (Get a Taste and above) and administrators never wait; in line, I'm All In
 * (priority_queue) comes first, then other paid plans, then free members, then guests, with
 * ageing (`priorityOf`). A paid
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
  return isAdministrator(viewer) || viewer.permissions.includes("skip_waiting_room");
}

/** An active (or cancelled, until its date) paid plan: what the room falls back on when it cannot be read. */
export function hasActiveSubscription(viewer: Viewer): boolean {
  return !viewer.isGuest && effectiveRole(viewer) !== "free";
}

/**
 * The head start, in seconds, every better plan has over this one: the line is ordered by arrival
 * plus this, so better plans go first while a member who has waited longer than the gap is
 * admitted before newer arrivals of any plan (nobody waits forever under a lasting overload).
 */
export const HEAD_START_S = { priority: 0, paid: 5 * 60, free: 10 * 60, guest: 15 * 60 } as const;

export function priorityOf(viewer: Viewer): number {
  if (viewer.isGuest) return HEAD_START_S.guest;
  if (viewer.permissions.includes("priority_queue")) return HEAD_START_S.priority;
  const role = effectiveRole(viewer);
  if (role === "premium") return HEAD_START_S.priority;
  return role === "free" ? HEAD_START_S.free : HEAD_START_S.paid;
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
export function waitingRoomRefusal(retryAfterS = QUEUE_RETRY_AFTER_S): HttpError {
  return new HttpError(
    429,
    "waitingRoom",
    "Lots of people are chatting right now, so you're in the waiting room. We'll let you in as soon as there's room.",
    { retryAfter: retryAfterS },
  );
}

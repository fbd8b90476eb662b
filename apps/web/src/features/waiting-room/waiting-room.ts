import {
  type Me,
  QUEUE_ACCESS_IDLE_S,
  QUEUE_RETRY_AFTER_S,
  QUEUE_TIME_SHOWN_FROM_S,
  type QueueState,
} from "@hearth/contract";

/**
 * The waiting room's rules on the client (chat-and-characters §2 and §4 "Waiting queue",
 * accounts-billing-admin "Queue state"), kept pure so they can be tested without a browser.
 */

/** What the chat screen does with the queue's answer. */
export interface WaitingRoomView {
  /** Waiting without a bypass for this character: send is off; regenerate, report and like are hidden. */
  gated: boolean;
  /** 1-based place in line, when known. */
  position: number | null;
  /** Whole minutes left (rounded up), only once the estimate is a minute or more. */
  minutesLeft: number | null;
  /** Access lapsed after QUEUE_ACCESS_IDLE_S without chatting: say so above the banner. */
  expired: boolean;
}

export const openView: WaitingRoomView = { gated: false, position: null, minutesLeft: null, expired: false };

/** The room's times as the operator set them (app settings' `limits.waiting_room`). */
export interface RoomTiming {
  time_shown_from_s: number;
  retry_after_s: number;
  access_idle_s: number;
}

/** The spec's times, for answers read before the app settings. */
export const specTiming: RoomTiming = {
  time_shown_from_s: QUEUE_TIME_SHOWN_FROM_S,
  retry_after_s: QUEUE_RETRY_AFTER_S,
  access_idle_s: QUEUE_ACCESS_IDLE_S,
};

/** Idle minutes after which access lapses (20 by the spec). */
export function accessIdleMinutes(timing: RoomTiming = specTiming): number {
  return Math.round(timing.access_idle_s / 60);
}

/** "Estimated Time Left" appears from a minute on (the operator's threshold), in whole minutes rounded up. */
export function minutesLeft(timeLeftS: number | null, timing: RoomTiming = specTiming): number | null {
  if (timeLeftS === null || timeLeftS < timing.time_shown_from_s) return null;
  return Math.ceil(timeLeftS / 60);
}

/** Skips the line whatever the queue says: the skip_waiting_room permission (every paid plan). */
export function skipsLine(me: Me | null): boolean {
  return Boolean(me?.permissions.includes("skip_waiting_room"));
}

/** An active subscriber, who keeps access when the queue can't be read (the spec's fallback). */
export function isActiveSubscriber(me: Me | null): boolean {
  if (!me || me.is_guest) return false;
  return skipsLine(me) || (me.role !== "free" && me.status === "active");
}

/**
 * The view for one answer. `state` undefined with `failed` means the last read failed:
 * active subscribers chat, others wait (position unknown).
 */
export function viewOf(
  state: QueueState | undefined,
  failed: boolean,
  me: Me | null,
  characterId: string,
  timing: RoomTiming = specTiming,
): WaitingRoomView {
  if (failed) return isActiveSubscriber(me) ? openView : { ...openView, gated: true };
  if (!state?.enabled || state.status === "access") return openView;
  if (state.bypass !== null && state.bypass === characterId) return openView;
  return {
    gated: true,
    position: state.position,
    minutesLeft: minutesLeft(state.time_left, timing),
    expired: state.status === "expired",
  };
}

/** Ask no faster than this, even when the server says "at once" (refresh with retry_after 0). */
const minimumWaitMs = 500;

/**
 * When to ask again: after retry_after while waiting (or expired), at once on refresh, and when
 * access would lapse; never when the room is off. A failed read asks again after the default.
 */
export function nextCheckMs(
  state: QueueState | undefined,
  failed: boolean,
  timing: RoomTiming = specTiming,
): number | false {
  if (failed) return timing.retry_after_s * 1000;
  if (!state?.enabled) return false;
  switch (state.status) {
    case "refresh":
      return minimumWaitMs;
    case "access":
      return state.expires_in === null ? false : Math.max(minimumWaitMs, (state.expires_in + 1) * 1000);
    default:
      return Math.max(1000, state.retry_after * 1000);
  }
}

/** The banner's words, also its accessible name: "Waiting Room Position 3 · Estimated Time Left 4 min". */
export function bannerWords(view: WaitingRoomView): { position: string; time: string | null } {
  return {
    position:
      view.position === null ? "Waiting Room: finding your place" : `Waiting Room Position ${view.position}`,
    time: view.minutesLeft === null ? null : `Estimated Time Left ${view.minutesLeft} min`,
  };
}

import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Who may use voice (chat-and-characters §5 "Voice features need TTS access and a premium
 * user", §6 TTS, "Guests have no ... voice"; issue 16). TTS comes with True Supporter and I'm
 * All In (and administrators; accounts' permissions.ts), so holding it is being premium here.
 * Listing voices and hearing their samples is open, so the voice selection modal can show what
 * an upgrade brings. Whose message or conversation it is is checked by `assertOwns`.
 */

/** `error_type` of a refusal the client answers with the sign-up prompt (guests). */
export const VOICE_SIGN_UP = "voice_sign_up";
/** `error_type` of a refusal the client answers with the upgrade modal (no TTS). */
export const VOICE_UPGRADE = "voice_upgrade";

export const voiceOff = () =>
  new HttpError(503, "unavailable", "This server has no voice set up.", { errorType: "voice_off" });

/** Signed in, not restricted, not a guest, holding TTS. */
export function assertCanUseVoice(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (viewer.isGuest) {
    throw new HttpError(403, "forbidden", "Sign up and choose a plan with voice to hear replies.", {
      errorType: VOICE_SIGN_UP,
    });
  }
  if (!viewer.permissions.includes("TTS")) {
    throw new HttpError(
      403,
      "forbidden",
      viewer.permissions.includes("limited_access")
        ? "Your account has limited access and cannot use voice."
        : "Voice comes with the True Supporter and I'm All In plans. Upgrade to hear replies.",
      { errorType: VOICE_UPGRADE },
    );
  }
  return viewer;
}

/** Another member's conversation or message is answered like a missing one: 404. */
export function assertOwns<T extends { userId: string }>(
  viewer: Viewer,
  owner: T | null,
  what: "conversation" | "message",
): asserts owner is T {
  if (!owner || owner.userId !== viewer.id) {
    throw new HttpError(404, "notFound", what === "message" ? "No such message." : "No such conversation.");
  }
}

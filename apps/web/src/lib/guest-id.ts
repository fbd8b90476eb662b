import { type GuestKey, guestEndpoints, type Me } from "@hearth/contract";
import { isApiRequestError } from "./api.ts";
import { call } from "./client.ts";

/**
 * The guest id in local storage (chat-and-characters §1, §3; issue 17 item 5): a guest's browser
 * keeps its id and the key the server signed for it, so a cleared cookie comes back as the same
 * guest while the server still has it. Signing out, or becoming a member, forgets it.
 */
const KEY = "hearth.guest";

function read(): GuestKey | null {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as GuestKey) : null;
    return parsed && typeof parsed.guest_id === "string" && typeof parsed.key === "string" ? parsed : null;
  } catch {
    return null;
  }
}

export function forgetGuest(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Storage may be off; nothing to forget then.
  }
}

/** After /api/me: keep a guest's id and key (asked once), forget them for anyone else. */
export function rememberGuest(me: Me | null): void {
  if (!me) return;
  if (!me.is_guest) {
    forgetGuest();
    return;
  }
  if (read()?.guest_id === me.id) return;
  void call(guestEndpoints.key, {})
    .then((key) => localStorage.setItem(KEY, JSON.stringify(key)))
    .catch(() => undefined);
}

/** Signed out with a stored guest: that guest again, or null (and the stored id forgotten). */
export async function resumeGuest(): Promise<Me | null> {
  const stored = read();
  if (!stored) return null;
  try {
    return await call(guestEndpoints.resume, { body: stored });
  } catch (error) {
    if (isApiRequestError(error) && error.status >= 400 && error.status < 500) forgetGuest();
    return null;
  }
}

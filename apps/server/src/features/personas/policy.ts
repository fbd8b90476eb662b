import type { PersonaLimits } from "../../config.ts";
import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, effectiveRole, isAdministrator, type Viewer } from "../accounts/index.ts";

/**
 * Who may keep personas, and how many (chat-and-characters §6 "Guests have no personas", §9
 * persona limits per tier). Persona errors carry an `error_type` for the client's message (spec §8).
 */

export const PERSONA_NOT_FOUND_MESSAGE = "This persona does not exist or is not yours.";

/** A missing id and another user's persona answer the same 404 (a malformed id is the contract's 400). */
export const personaNotFound = () =>
  new HttpError(404, "notFound", PERSONA_NOT_FOUND_MESSAGE, { errorType: "persona_not_found" });

export const personaNameTaken = (name: string) =>
  new HttpError(409, "conflict", `You already have a persona named "${name}". Choose another name.`, {
    issues: [{ path: "name", message: "You already have a persona with this name" }],
    errorType: "persona_name_taken",
  });

/**
 * Signed in, not restricted (403 `restricted`), and holding `personas`: members have it, guests
 * and limited accounts do not.
 */
export function assertCanUsePersonas(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  if (!viewer.permissions.includes("personas")) {
    const message = viewer.isGuest
      ? "Sign up free to create personas."
      : viewer.permissions.includes("limited_access")
        ? "Your account has limited access and cannot use personas."
        : "You are not allowed to use personas.";
    throw new HttpError(403, "forbidden", message, { errorType: "personas_not_allowed" });
  }
  return viewer;
}

/** The most personas this viewer may have; null for no limit (admins, or a tier set to unlimited). */
export function personaLimitFor(viewer: Viewer, limits: PersonaLimits): number | null {
  if (isAdministrator(viewer)) return null;
  return limits[effectiveRole(viewer)];
}

/** Refuses a new persona when the viewer already has as many as their tier allows. */
export function assertMayCreatePersona(viewer: Viewer, count: number, limits: PersonaLimits): void {
  const limit = personaLimitFor(viewer, limits);
  if (limit === null || count < limit) return;
  const topTier = effectiveRole(viewer) === "premium";
  const message =
    limit === 0
      ? `Personas are not included in your plan.${topTier ? "" : " Upgrade to create them."}`
      : `You can have up to ${limit} ${limit === 1 ? "persona" : "personas"} on your plan. ` +
        `Delete one to create another${topTier ? "" : ", or upgrade for more"}.`;
  throw new HttpError(403, "limitReached", message, { errorType: "persona_limit_reached" });
}

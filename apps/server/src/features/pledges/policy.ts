import { forbidden, HttpError } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Linking a pledge gives the account a tier, so it needs an account of one's own: not a guest
 * (their session is temporary), not a restricted account (told so with 403 `restricted`), and
 * not an administrator viewing the site as someone (read-only, even over GET).
 */
export function assertCanLinkPledge(viewer: Viewer): void {
  assertNotRestricted(viewer);
  if (viewer.impersonatedBy) {
    throw new HttpError(
      403,
      "impersonating",
      "You are viewing the site as this member: linking a pledge is left to them.",
    );
  }
  if (viewer.isGuest) throw forbidden("Sign up for a free account to link your pledge.");
}

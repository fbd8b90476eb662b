import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Who may export or import a whole account, the one check both routes make before any input is
 * read: a signed-in member (401 otherwise), not a guest (a guest's chats are temporary and they
 * own nothing to move), and not an administrator viewing the site as the member (403
 * `impersonating`: the view is read-only for writes, and downloading someone's whole account is
 * not "viewing" either). A restricted account may still download its own data (every account
 * keeps that right) but imports nothing (403 `restricted`, first, as everywhere).
 */
export function assertCanTransferAccount(viewer: Viewer | null, direction: "export" | "import"): Viewer {
  if (!viewer) throw unauthorized();
  if (direction === "import") assertNotRestricted(viewer);
  if (viewer.impersonatedBy) {
    throw new HttpError(
      403,
      "impersonating",
      "You are viewing the site as this user: their data cannot be downloaded or imported. Stop viewing to act as yourself.",
    );
  }
  if (viewer.isGuest) {
    throw new HttpError(403, "forbidden", "Sign up for a free account to download or import your data.");
  }
  return viewer;
}

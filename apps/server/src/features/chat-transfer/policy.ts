import { HttpError, notFound, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, assertPermission, isAdministrator, type Viewer } from "../accounts/index.ts";

/**
 * Who may import and export chats. A restricted account is refused first (403 `restricted`),
 * before anything is looked up or read.
 */

/** Importing makes a saved conversation: signed-in members who may chat, not guests. */
export function assertCanImportChats(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthorized();
  assertPermission(viewer, "view_chat");
  if (viewer.isGuest) throw new HttpError(403, "forbidden", "Sign up to import chats.");
  return viewer;
}

/**
 * A conversation is exported by its owner (a guest too, their own temporary chat) or an
 * administrator. Anyone else hears 404, as for a missing conversation: another member's chat
 * never leaks, not even its existence (chats' policy).
 */
export function assertCanExportChat(
  viewer: Viewer | null,
  conversation: { userId: string } | null,
): asserts conversation is { userId: string } {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  const admin = isAdministrator(viewer);
  const mayRead = conversation && (conversation.userId === viewer.id || admin);
  if (!mayRead) throw notFound("No such conversation.");
  if (!admin) assertPermission(viewer, "view_chat");
}

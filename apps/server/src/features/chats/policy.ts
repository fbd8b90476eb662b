import { notFound } from "../../http/errors.ts";
import { assertPermission, type Viewer } from "../accounts/index.ts";
import type { ConversationRow } from "./schema.ts";

/**
 * A conversation belongs to the person who started it, and only they may read or change it.
 * Others (administrators too) get a 404: another user's chat never leaks, not even its existence.
 */
export function assertOwnsConversation(
  viewer: Viewer,
  conversation: ConversationRow | null,
): asserts conversation is ConversationRow {
  assertPermission(viewer, "view_chat");
  if (!conversation || conversation.userId !== viewer.id) throw notFound("No such conversation.");
}

import { type AppEvent, type ChatUiAction, ratingEndpoints } from "@hearth/contract";
import { call } from "../../lib/client.ts";

/**
 * Product events (issue 17): sent without waiting for the answer, and a failure is dropped, so an
 * event never holds up or breaks the chat (ads open in a new tab, so the page stays to send it).
 */
export function sendEvent(body: AppEvent): void {
  void call(ratingEndpoints.event, { body }).catch(() => undefined);
}

/** A chat-screen action for the operator's product analytics (skipped where analytics are off). */
export function logChatUi(
  enabled: boolean,
  action: ChatUiAction,
  ids: { characterId: string; conversationId: string },
  detail: string | null = null,
): void {
  if (!enabled) return;
  sendEvent({
    event_name: "chatUi",
    action,
    character_id: ids.characterId,
    conversation_id: ids.conversationId,
    detail,
  });
}

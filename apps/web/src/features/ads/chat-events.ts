import type { ChatUiAction, Conversation } from "@hearth/contract";
import { useEffect, useRef } from "react";
import { useAppSettings } from "../../lib/app-settings.ts";
import type { ChatState } from "../chat/chat-state.ts";
import { logChatUi } from "./events.ts";

const ACTION_EVENTS: Record<string, ChatUiAction> = {
  send: "send",
  regenerate: "regenerate",
  continue: "continue",
  autopilot: "suggest",
  resubmit: "send",
};

/**
 * Chat-UI events for the operator's product analytics (issue 17 item 3): opening the chat, each
 * send, regenerate, continue, suggest and stop, and each error banner shown. Read from the chat's
 * state, so the chat's own code is untouched; off where app settings say analytics are off.
 */
export function useChatUiEvents(conversation: Conversation, state: ChatState): void {
  const enabled = useAppSettings().analytics;
  const ids = { characterId: conversation.character_id, conversationId: conversation.id };
  const idsRef = useRef(ids);
  idsRef.current = ids;

  useEffect(() => {
    logChatUi(enabled, "open_chat", {
      characterId: conversation.character_id,
      conversationId: conversation.id,
    });
  }, [enabled, conversation.id, conversation.character_id]);

  const streaming = state.streaming;
  const startedAction = streaming && !streaming.resumeFrom ? streaming.action : null;
  useEffect(() => {
    const action = startedAction ? ACTION_EVENTS[startedAction] : undefined;
    if (action) logChatUi(enabled, action, idsRef.current);
  }, [enabled, startedAction]);

  const stopping = streaming?.stopping ?? false;
  useEffect(() => {
    if (stopping) logChatUi(enabled, "stop", idsRef.current);
  }, [enabled, stopping]);

  const problem = state.problem;
  const problemKey = problem ? `${problem.kind}:${"id" in problem ? problem.id : ""}` : null;
  const problemKind = problem?.kind ?? null;
  useEffect(() => {
    if (problemKey && problemKind) logChatUi(enabled, "error_shown", idsRef.current, problemKind);
  }, [enabled, problemKey, problemKind]);
}

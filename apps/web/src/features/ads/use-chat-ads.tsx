import type { Conversation } from "@hearth/contract";
import { type ReactNode, useCallback, useRef } from "react";
import type { ChatRow, Streaming } from "../chat/chat-state.ts";
import { AdSlot, useAdRules } from "./ad-slot.tsx";

/**
 * Where the chat's ad slots go: after the message whose place in the whole chat the rule names
 * (chat-and-characters §9), counted from the chat's first message even when older ones are not
 * loaded; never beside a reply being written or a message the server has not stored.
 * Answers null when this viewer gets no ads.
 */
/**
 * The chat position an ad slot after this row would have, or null where there is none: past the
 * rule's threshold at its interval, after a stored, finished message, and not beside the reply
 * being written (`busyFrom`: the first row index a stream touches).
 */
export function adSlotAfterRow(
  index: number,
  row: ChatRow,
  at: { rule: (after: number) => boolean; firstPosition: number; busyFrom: number },
): number | null {
  if (row.unsent || index >= at.busyFrom || row.message.state !== "complete") return null;
  const after = at.firstPosition + index;
  return at.rule(after) ? after : null;
}

export function useChatAds(
  conversation: Conversation,
  rows: ChatRow[],
  hasMore: boolean,
  streaming: Streaming | null,
): ((index: number, row: ChatRow) => ReactNode) | null {
  const rule = useAdRules();
  // The first row shown at load and how many messages came before it.
  const anchor = useRef({ key: rows[0]?.key ?? null, before: conversation.message_count - rows.length });
  const anchorIndex = rows.findIndex((r) => r.key === anchor.current.key);
  const firstPosition = hasMore ? anchor.current.before - Math.max(0, anchorIndex) + 1 : 1;
  const busyFrom = streaming ? rows.length - 2 : rows.length;

  const render = useCallback(
    (index: number, row: ChatRow): ReactNode => {
      const after = rule ? adSlotAfterRow(index, row, { rule, firstPosition, busyFrom }) : null;
      if (after === null) return null;
      return (
        <AdSlot
          placement={{
            conversationId: conversation.id,
            characterId: conversation.character_id,
            after,
            messageId: row.message.id,
          }}
        />
      );
    },
    [rule, busyFrom, firstPosition, conversation.id, conversation.character_id],
  );
  return rule ? render : null;
}

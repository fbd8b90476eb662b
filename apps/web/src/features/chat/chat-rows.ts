import type { Message } from "@hearth/contract";
import type { ChatRow, Streaming } from "./chat-state-types.ts";

/** Pure helpers over the chat's rows and the reply being written (used by the reducer and the screen). */

export function placeholderMessage(
  id: string,
  conversationId: string,
  now: string,
  role: Message["role"],
): Message {
  return {
    id,
    conversation_id: conversationId,
    role,
    content: "",
    state: role === "bot" ? "streaming" : "complete",
    createdAt: now,
    image_url: null,
    image_prompt: null,
    rating: null,
    alternative_index: 0,
    alternative_count: 1,
  };
}

/** The text a row shows right now: the stream's text for the row being written. */
export function liveContent(row: ChatRow, streaming: Streaming | null): string {
  if (streaming && streaming.rowKey === row.key) {
    return streaming.resumeFrom ?? streaming.base + streaming.text;
  }
  return row.message.content;
}

/**
 * Lines a replayed stream up with the text that was already on screen. The server stores a reply
 * as it streams, and a resume replays its tokens from the start; the reply may also continue
 * older text (the continue action). Answers the text the tokens build on, or null while the
 * replay hasn't yet got past what is shown.
 */
export function alignResumed(shown: string, replayed: string): { base: string } | null {
  if (replayed.startsWith(shown)) return { base: "" };
  if (shown.startsWith(replayed) || shown.includes(replayed)) return null;
  // A continued reply: shown = original + the part already written, which the replay begins with.
  for (let i = Math.max(1, shown.length - replayed.length); i < shown.length; i++) {
    if (replayed.startsWith(shown.slice(i))) return { base: shown.slice(0, i) };
  }
  return { base: shown };
}

/** The last bot message (regenerate, continue and alternatives act on it). */
export function lastBotRow(rows: ChatRow[]): ChatRow | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (row?.message.role === "bot") return row;
  }
  return null;
}

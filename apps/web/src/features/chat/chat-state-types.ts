import type { GenerateAction, GenerationEvent, Message, MessagePage } from "@hearth/contract";

/** The chat screen's state and actions (chat-state.ts holds the reducer over them). */

export type TypingState = "idle" | "bot" | "autopilot";

export interface ChatRow {
  key: string;
  message: Message;
  /** A message of ours the server never stored (the send failed before it started). */
  unsent?: boolean;
}

export interface Streaming {
  action: GenerateAction | null;
  generationId: string | null;
  /** The bot row being written; null for autopilot (it writes into the input box). */
  rowKey: string | null;
  /** `rowKey` is a placeholder row (typing indicator) the server has not named yet. */
  placeholder: boolean;
  /** The optimistic user row of a send, until `started` brings the stored message. */
  userRowKey: string | null;
  /** Text the reply builds on: the message's old text for continue, else "". */
  base: string;
  /** Tokens received so far. */
  text: string;
  /**
   * A reply followed after (re)opening the chat, of an action we didn't start: the text it had
   * on screen, shown until the replayed tokens are lined up with it (see alignResumed).
   */
  resumeFrom: string | null;
  queue: { position: number; timeLeftS: number } | null;
  reconnecting: boolean;
  stopping: boolean;
}

/** What the default error banner's Resubmit does. */
export type RetryPlan =
  | { action: "resubmit" }
  | { action: "send"; content: string; rowKey: string }
  | { action: "regenerate" | "continue"; messageId: string }
  | { action: "autopilot" };

export type ChatProblem =
  | { kind: "generation"; detail: string; retry: RetryPlan; id: number }
  | { kind: "limit"; detail: string }
  /** The message alone is longer than the model reads: shorten it (the text goes back to the box). */
  | { kind: "tooLong"; detail: string }
  /** The server will not take it from this session at all (an administrator's read-only view): no retry. */
  | { kind: "refused"; detail: string }
  /** The waiting room is on and it isn't this member's turn (429 waitingRoom): the screen asks the queue again. */
  | { kind: "waiting"; detail: string }
  | { kind: "access"; code: "invalidAccess" | "blockedBotCreator"; detail: string };

export interface ChatState {
  rows: ChatRow[];
  hasMore: boolean;
  contextStartId: string | null;
  streaming: Streaming | null;
  problem: ChatProblem | null;
  /** Autopilot's finished suggestion for the input box; `id` changes with every new one. */
  suggestion: { id: number; text: string } | null;
  /** Text handed back to the input box after a send the server refused. */
  restoredDraft: { id: number; text: string } | null;
  /** What the polite live region says: the newest finished reply, or the alternative switched to. */
  announcement: Announcement | null;
  /** Something about the last reply worth saying (it added nothing; the card was cut to fit). */
  notice: ChatNotice | null;
  /** The "card was cut" notice was dismissed: it is not shown again in this chat. */
  trimNoticeDismissed: boolean;
}

export interface Announcement {
  text: string;
  /** Set when the reader stepped to another alternative ("Alternative 2 of 3"). */
  alternative: { index: number; count: number } | null;
}

export type ChatNotice = { id: number } & (
  | { kind: "nothing-added" }
  /** Parts of the character's definition were left out to fit the model's window. */
  | { kind: "definition-cut" }
);

export type ChatAction =
  | { type: "page/prepend"; page: MessagePage }
  /** The newest page read again (to resync after a lost stream): replaces what it overlaps. */
  | { type: "page/merge-newest"; page: MessagePage; contextStartId: string | null }
  | {
      type: "generation/begin";
      action: GenerateAction | null;
      content?: string;
      /** Row keys for the optimistic user message and the reply placeholder. */
      userRowKey?: string;
      pendingRowKey?: string;
      /** Existing row written by regenerate/continue. */
      targetId?: string;
      /** A failed send being tried again reuses its row. */
      retryRowKey?: string;
      now: string;
      conversationId: string;
    }
  | {
      type: "generation/event";
      event: GenerationEvent;
      now: string;
      conversationId: string;
      problemId: number;
    }
  | { type: "generation/tokens"; text: string }
  | { type: "generation/reconnecting"; reconnecting: boolean }
  | { type: "generation/stopping" }
  | { type: "generation/failed"; code: string; detail: string; problemId: number }
  | { type: "generation/abandoned" }
  /** Another generation was already running: undo this one's optimistic rows, no error. */
  | { type: "generation/superseded" }
  | { type: "message/replace"; message: Message }
  /** The last reply switched to another alternative (said aloud, unlike an edit). */
  | { type: "alternative/selected"; message: Message }
  | { type: "problem/dismiss" }
  | { type: "notice/dismiss" };

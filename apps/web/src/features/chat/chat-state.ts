/**
 * The chat screen's state as a pure reducer: the loaded messages (oldest → newest), the reply
 * being written, and what went wrong. Rows keep a client key for their whole life on screen, so
 * an optimistic message swapped for the stored one keeps its measured height (no jump).
 */

import type { GenerationEvent, MessagePage } from "@hearth/contract";
import { alignResumed, lastBotRow, placeholderMessage } from "./chat-rows.ts";
import type {
  ChatAction,
  ChatNotice,
  ChatProblem,
  ChatRow,
  ChatState,
  RetryPlan,
  Streaming,
} from "./chat-state-types.ts";

export { alignResumed, lastBotRow, liveContent, placeholderMessage } from "./chat-rows.ts";
export type {
  Announcement,
  ChatAction,
  ChatNotice,
  ChatProblem,
  ChatRow,
  ChatState,
  RetryPlan,
  Streaming,
  TypingState,
} from "./chat-state-types.ts";

export function initialChatState(page: MessagePage, contextStartId: string | null): ChatState {
  return {
    rows: page.messages.map((message) => ({ key: message.id, message })),
    hasMore: page.has_more,
    contextStartId,
    streaming: null,
    problem: null,
    suggestion: null,
    restoredDraft: null,
    announcement: null,
    notice: null,
    trimNoticeDismissed: false,
  };
}

/** Tokens mean a worker has the reply: it no longer waits in line. */
function withTokens(streaming: Streaming, tokens: string): Streaming {
  const text = streaming.text + tokens;
  if (streaming.resumeFrom === null) return { ...streaming, text, queue: null };
  const aligned = alignResumed(streaming.resumeFrom, text);
  return aligned
    ? { ...streaming, text, base: aligned.base, resumeFrom: null, queue: null }
    : { ...streaming, text, queue: null };
}

const updateRow = (rows: ChatRow[], key: string, change: (row: ChatRow) => ChatRow): ChatRow[] =>
  rows.map((row) => (row.key === key ? change(row) : row));

function started(
  state: ChatState,
  event: Extract<GenerationEvent, { type: "started" }>,
  ctx: { now: string; conversationId: string },
): ChatState {
  const streaming = state.streaming;
  if (!streaming) return state;
  let rows = state.rows;
  if (event.user_message && streaming.userRowKey) {
    const stored = event.user_message;
    rows = updateRow(rows, streaming.userRowKey, (row) => ({ key: row.key, message: stored }));
  }
  const placeholderKey = streaming.placeholder ? streaming.rowKey : null;
  let rowKey: string | null = null;
  let base = "";
  let resumeFrom: string | null = null;
  if (event.message_id === null) {
    // Autopilot: nothing is written in the list.
    if (placeholderKey) rows = rows.filter((row) => row.key !== placeholderKey);
  } else {
    const messageId = event.message_id;
    const existing = rows.find((row) => row.message.id === messageId && row.key !== placeholderKey);
    if (existing) {
      // Regenerate or continue, or a resumed reply whose message is already on screen.
      rowKey = existing.key;
      if (streaming.action === null && existing.message.content) resumeFrom = existing.message.content;
      if (placeholderKey) rows = rows.filter((row) => row.key !== placeholderKey);
      if (streaming.action === "continue")
        base = streaming.rowKey === existing.key ? streaming.base : existing.message.content;
      // A picture is remade in place (no new alternative).
      if (streaming.action === "regenerate" && existing.message.image_prompt === null) {
        rows = updateRow(rows, existing.key, (row) => ({
          ...row,
          message: {
            ...row.message,
            alternative_index: row.message.alternative_count,
            alternative_count: row.message.alternative_count + 1,
          },
        }));
      }
    } else if (placeholderKey && rows.some((row) => row.key === placeholderKey)) {
      rowKey = placeholderKey;
      rows = updateRow(rows, placeholderKey, (row) => ({
        ...row,
        message: { ...row.message, id: messageId },
      }));
    } else {
      rowKey = messageId;
      const message = placeholderMessage(messageId, ctx.conversationId, ctx.now, "bot");
      rows = [...rows, { key: messageId, message }];
    }
  }
  return {
    ...state,
    rows,
    streaming: {
      ...streaming,
      generationId: event.generation_id,
      rowKey,
      placeholder: false,
      base,
      text: "",
      resumeFrom,
      // `started` comes as soon as the turn is stored: the reply may still wait in line.
      queue: streaming.queue,
    },
  };
}

function done(state: ChatState, event: Extract<GenerationEvent, { type: "done" }>): ChatState {
  const streaming = state.streaming;
  let rows = state.rows;
  const stored = event.message;
  // A stopped picture: its message is gone on the server (an image send has no user row).
  if (!stored && streaming?.action === "send" && !streaming.userRowKey && streaming.rowKey)
    rows = rows.filter((row) => row.key !== streaming.rowKey);
  if (stored) {
    const key = streaming?.rowKey ?? rows.find((row) => row.message.id === stored.id)?.key;
    if (key && rows.some((row) => row.key === key)) {
      rows = updateRow(rows, key, (row) => ({ key: row.key, message: stored }));
    } else {
      rows = [...rows, { key: stored.id, message: stored }];
    }
  }
  const nextNotice = (kind: ChatNotice["kind"]): ChatNotice => ({ id: (state.notice?.id ?? 0) + 1, kind });
  const definitionCut = event.trims.some((t) => t.section !== "examples" && t.section !== "history");
  let notice = state.notice;
  if (streaming?.action === "continue" && event.empty) notice = nextNotice("nothing-added");
  else if (definitionCut && !state.trimNoticeDismissed) notice = nextNotice("definition-cut");
  else if (notice?.kind === "nothing-added") notice = null;
  return {
    ...state,
    rows,
    notice,
    contextStartId: event.context_start_message_id,
    streaming: null,
    suggestion:
      event.suggestion !== null
        ? { id: (state.suggestion?.id ?? 0) + 1, text: event.suggestion }
        : state.suggestion,
    announcement: stored ? { text: stored.content, alternative: null } : state.announcement,
  };
}

/** Ends the stream after an error: keep text already written, drop an empty placeholder. */
function settleAfterFailure(state: ChatState): ChatRow[] {
  const streaming = state.streaming;
  if (!streaming?.rowKey) return state.rows;
  const key = streaming.rowKey;
  const content = streaming.resumeFrom ?? streaming.base + streaming.text;
  const row = state.rows.find((r) => r.key === key);
  if (!row) return state.rows;
  // A placeholder the server never named goes; a reply it stored stays, marked failed (as a
  // reload would show it).
  if (row.message.id.startsWith("local-")) return state.rows.filter((r) => r.key !== key);
  if (streaming.text === "" && row.message.state !== "streaming") return state.rows;
  return updateRow(state.rows, key, (r) => ({ ...r, message: { ...r.message, content, state: "failed" } }));
}

function retryPlanFor(streaming: Streaming | null, startedOnServer: boolean, rows: ChatRow[]): RetryPlan {
  if (!streaming || startedOnServer) return { action: "resubmit" };
  if (streaming.action === "send" && streaming.userRowKey) {
    const row = rows.find((r) => r.key === streaming.userRowKey);
    if (row) return { action: "send", content: row.message.content, rowKey: row.key };
  }
  if (streaming.action === "autopilot") return { action: "autopilot" };
  const target = lastBotRow(rows);
  if ((streaming.action === "regenerate" || streaming.action === "continue") && target) {
    return { action: streaming.action, messageId: target.message.id };
  }
  return { action: "resubmit" };
}

function failed(state: ChatState, code: string, detail: string, problemId: number): ChatState {
  const streaming = state.streaming;
  const startedOnServer = Boolean(streaming?.generationId);
  // A picture that was refused or failed is never kept: the server removed a new picture's
  // message (an image send has no user row) and left a remade one as it was.
  let rows =
    code.startsWith("image") && streaming?.action === "send" && !streaming.userRowKey
      ? state.rows.filter((row) => row.key !== streaming.rowKey)
      : settleAfterFailure(state);
  let restoredDraft = state.restoredDraft;
  const userKey = streaming?.userRowKey ?? null;
  const userRow = userKey ? rows.find((row) => row.key === userKey) : undefined;
  const userStored = Boolean(userRow && !userRow.unsent && userRow.message.id !== userKey);

  let problem: ChatProblem;
  if (code === "invalidAccess" || code === "blockedBotCreator") {
    problem = { kind: "access", code, detail };
  } else if (code === "limitReached") {
    problem = { kind: "limit", detail };
  } else if (code === "messageTooLong") {
    problem = { kind: "tooLong", detail };
  } else if (code === "impersonating" || code.startsWith("image")) {
    // A read-only view, or a picture refused or failed (imagePromptUnderage and
    // imageContentGuidelines are dismissible, §8): a dismissible banner, no Resubmit.
    problem = { kind: "refused", detail };
  } else if (code === "waitingRoom") {
    problem = { kind: "waiting", detail };
  } else {
    problem = {
      kind: "generation",
      detail,
      retry: retryPlanFor(streaming, startedOnServer, rows),
      id: problemId,
    };
  }

  if (userRow && !userStored) {
    if (problem.kind === "generation" && problem.retry.action === "send") {
      rows = updateRow(rows, userRow.key, (row) => ({ ...row, unsent: true }));
    } else {
      // Not sent and not retryable from the banner: hand the words back to the input box.
      rows = rows.filter((row) => row.key !== userRow.key);
      restoredDraft = { id: (restoredDraft?.id ?? 0) + 1, text: userRow.message.content };
    }
  }
  return { ...state, rows, streaming: null, problem, restoredDraft };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "page/prepend": {
      const known = new Set(state.rows.map((row) => row.message.id));
      const older = action.page.messages
        .filter((m) => !known.has(m.id))
        .map((m) => ({ key: m.id, message: m }));
      return { ...state, rows: [...older, ...state.rows], hasMore: action.page.has_more };
    }
    case "page/merge-newest": {
      const keyOf = new Map(state.rows.map((row) => [row.message.id, row.key]));
      const fresh = action.page.messages.map((m) => ({ key: keyOf.get(m.id) ?? m.id, message: m }));
      const first = action.page.messages[0];
      const overlap = first ? state.rows.findIndex((row) => row.message.id === first.id) : -1;
      const rows = overlap >= 0 ? [...state.rows.slice(0, overlap), ...fresh] : fresh;
      return {
        ...state,
        rows,
        hasMore: overlap >= 0 ? state.hasMore : action.page.has_more,
        contextStartId: action.contextStartId,
        streaming: null,
      };
    }
    case "generation/begin": {
      let rows = state.rows;
      let userRowKey: string | null = null;
      let rowKey: string | null = null;
      if (action.action === "send" && action.content !== undefined) {
        if (action.retryRowKey && rows.some((row) => row.key === action.retryRowKey)) {
          userRowKey = action.retryRowKey;
          rows = updateRow(rows, userRowKey, (row) => ({ key: row.key, message: row.message }));
        } else if (action.userRowKey) {
          userRowKey = action.userRowKey;
          const message = {
            ...placeholderMessage(userRowKey, action.conversationId, action.now, "user"),
            content: action.content,
          };
          rows = [...rows, { key: userRowKey, message }];
        }
      }
      if (action.targetId) {
        rowKey = rows.find((row) => row.message.id === action.targetId)?.key ?? null;
      } else if (action.pendingRowKey && action.action !== "autopilot") {
        rowKey = action.pendingRowKey;
        rows = [
          ...rows,
          { key: rowKey, message: placeholderMessage(rowKey, action.conversationId, action.now, "bot") },
        ];
      }
      const target = rowKey ? rows.find((row) => row.key === rowKey) : undefined;
      return {
        ...state,
        rows,
        problem: state.problem?.kind === "access" ? state.problem : null,
        streaming: {
          action: action.action,
          generationId: null,
          rowKey,
          placeholder: rowKey !== null && !action.targetId,
          userRowKey,
          base: action.action === "continue" && target ? target.message.content : "",
          text: "",
          resumeFrom: null,
          queue: null,
          reconnecting: false,
          stopping: false,
        },
      };
    }
    case "generation/event": {
      const event = action.event;
      const streaming = state.streaming;
      if (!streaming) return state;
      switch (event.type) {
        case "queued":
          return {
            ...state,
            streaming: {
              ...streaming,
              generationId: event.generation_id,
              queue: event.position > 0 ? { position: event.position, timeLeftS: event.time_left_s } : null,
            },
          };
        case "started":
          return started(state, event, action);
        case "token":
          return { ...state, streaming: withTokens(streaming, event.text) };
        case "done":
          return done(state, event);
        case "error":
          return failed(state, event.code, event.message, action.problemId);
      }
      return state;
    }
    case "generation/tokens":
      return state.streaming ? { ...state, streaming: withTokens(state.streaming, action.text) } : state;
    case "generation/reconnecting":
      return state.streaming
        ? { ...state, streaming: { ...state.streaming, reconnecting: action.reconnecting } }
        : state;
    case "generation/stopping":
      return state.streaming ? { ...state, streaming: { ...state.streaming, stopping: true } } : state;
    case "generation/failed":
      return failed(state, action.code, action.detail, action.problemId);
    case "generation/abandoned":
      return { ...state, rows: settleAfterFailure(state), streaming: null };
    case "generation/superseded": {
      const streaming = state.streaming;
      const userRow = streaming?.userRowKey
        ? state.rows.find((row) => row.key === streaming.userRowKey && row.message.id === row.key)
        : undefined;
      const rows = state.rows.filter(
        (row) => row !== userRow && !(streaming?.placeholder && row.key === streaming.rowKey),
      );
      const restoredDraft = userRow
        ? { id: (state.restoredDraft?.id ?? 0) + 1, text: userRow.message.content }
        : state.restoredDraft;
      return { ...state, rows, streaming: null, restoredDraft };
    }
    case "message/replace":
    case "alternative/selected": {
      const message = action.message;
      const rows = state.rows.map((row) => (row.message.id === message.id ? { key: row.key, message } : row));
      if (action.type === "message/replace") return { ...state, rows };
      const alternative = { index: message.alternative_index, count: message.alternative_count };
      return { ...state, rows, announcement: { text: message.content, alternative } };
    }
    case "problem/dismiss":
      return state.problem?.kind === "access" ? state : { ...state, problem: null };
    case "notice/dismiss":
      return {
        ...state,
        notice: null,
        trimNoticeDismissed: state.trimNoticeDismissed || state.notice?.kind === "definition-cut",
      };
  }
}

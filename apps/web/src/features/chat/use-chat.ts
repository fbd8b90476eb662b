import type { Conversation, GenerateRequest, GenerationEvent, Message, MessagePage } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import {
  chatKeys,
  fetchConversation,
  fetchMessagesBefore,
  fetchNewestMessages,
  selectAlternative as putAlternative,
  stopGeneration,
} from "./api.ts";
import { type ChatAction, type ChatRow, chatReducer, initialChatState } from "./chat-state.ts";
import { runGenerationStream } from "./generation-stream.ts";
import { type GenerationStart, useGenerationActions } from "./use-generation-actions.ts";

/** A stop that the server doesn't confirm within this time is settled by reading the page again. */
const stopFallbackMs = 6_000;

let localIds = 0;
const localKey = (kind: string) => `local-${kind}-${++localIds}`;

/**
 * Everything the chat screen does with one conversation: its messages, sending and the other
 * generation actions (built in use-generation-actions.ts), streaming with token batching (one
 * render per frame), stop, resume after a dropped connection or on opening a chat whose reply is
 * still being written.
 */
export function useChat(
  conversation: Conversation,
  initialPage: MessagePage,
  /** Added to every generation request when it is made (the chosen model, generation settings). */
  requestExtras?: () => Partial<GenerateRequest>,
) {
  const conversationId = conversation.id;
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(chatReducer, undefined, () =>
    initialChatState(initialPage, conversation.context_start_message_id),
  );
  const stateRef = useRef(state);
  stateRef.current = state;

  const [loadingPrevious, setLoadingPrevious] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);

  const controllerRef = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  const handledGeneration = useRef<string | null>(null);

  // First effect, so it runs before the resume below (also when StrictMode mounts twice).
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      controllerRef.current?.abort();
      controllerRef.current = null;
      handledGeneration.current = null;
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      dispatch({ type: "generation/abandoned" });
    };
  }, []);

  const stopRequested = useRef(false);
  const problemIds = useRef(0);
  const tokenBuffer = useRef("");
  const frame = useRef<number | null>(null);

  const flushTokens = useCallback(() => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = null;
    if (!tokenBuffer.current) return;
    const text = tokenBuffer.current;
    tokenBuffer.current = "";
    dispatch({ type: "generation/tokens", text });
  }, []);

  const syncConversation = useCallback(
    (event: Extract<GenerationEvent, { type: "done" }> | null) => {
      queryClient.setQueryData<Conversation>(chatKeys.detail(conversationId), (current) => {
        if (!current) return current;
        const message = event?.message;
        return {
          ...current,
          active_generation_id: null,
          context_start_message_id: event ? event.context_start_message_id : current.context_start_message_id,
          last_message: message
            ? { createdAt: message.createdAt, content: message.content, role: message.role }
            : current.last_message,
        };
      });
      void queryClient.invalidateQueries({ queryKey: chatKeys.list });
      void queryClient.invalidateQueries({ queryKey: chatKeys.byCharacter(conversation.character_id) });
    },
    [queryClient, conversationId, conversation.character_id],
  );

  /** Reads the newest page again and lays it over what is shown (after a stream was lost). */
  const resync = useCallback(async () => {
    try {
      const [page, fresh] = await Promise.all([
        fetchNewestMessages(conversationId),
        fetchConversation(conversationId),
      ]);
      if (!mounted.current) return;
      queryClient.setQueryData(chatKeys.detail(conversationId), fresh);
      dispatch({ type: "page/merge-newest", page, contextStartId: fresh.context_start_message_id });
    } catch {
      if (mounted.current) dispatch({ type: "generation/abandoned" });
    }
  }, [conversationId, queryClient]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow is declared below and only called later, from the stream; listing it here would read it before its declaration
  const start = useCallback(
    async (begin: GenerationStart) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      stopRequested.current = false;
      tokenBuffer.current = "";
      setActionError(null);
      const now = new Date().toISOString();
      const beginAction: ChatAction = {
        type: "generation/begin",
        action: begin.action,
        content: begin.content,
        userRowKey: begin.action === "send" ? localKey("user") : undefined,
        pendingRowKey: begin.targetId ? undefined : localKey("bot"),
        targetId: begin.targetId,
        retryRowKey: begin.retryRowKey,
        now,
        conversationId,
      };
      dispatch(beginAction);

      const onEvent = (event: GenerationEvent) => {
        if (controllerRef.current !== controller) return;
        if (event.type === "token") {
          tokenBuffer.current += event.text;
          frame.current ??= requestAnimationFrame(flushTokens);
          return;
        }
        flushTokens();
        if ((event.type === "queued" || event.type === "started") && stopRequested.current) {
          stopGeneration(event.generation_id).catch(() => undefined);
        }
        if (event.type === "queued" || event.type === "started")
          handledGeneration.current = event.generation_id;
        dispatch({
          type: "generation/event",
          event:
            event.type === "error" ? { ...event, code: imageCode(event.code) as typeof event.code } : event,
          now: new Date().toISOString(),
          conversationId,
          problemId: ++problemIds.current,
        });
        if (event.type === "done") syncConversation(event);
      };
      // A picture's failure is its own kind of problem (chat-state: dismissible, no Resubmit).
      const imageCode = (code: string) => (begin.image && !code.startsWith("image") ? "imageFailed" : code);

      try {
        const end = await runGenerationStream({
          request: begin.request,
          generationId: begin.generationId,
          signal: controller.signal,
          onEvent,
          onReconnecting: (reconnecting) => {
            if (controllerRef.current === controller)
              dispatch({ type: "generation/reconnecting", reconnecting });
          },
        });
        if (end === "aborted" && mounted.current && controllerRef.current === controller) {
          flushTokens();
          await resync();
        }
      } catch (error) {
        if (controller.signal.aborted || !mounted.current || controllerRef.current !== controller) return;
        flushTokens();
        const code = isApiRequestError(error) ? error.code : "internal";
        // A reply already being written (another tab, a double tap), or ours, whose stream broke
        // before the server named it: follow that one instead of reporting an error.
        const lostEarly = isApiRequestError(error) && error.status === 0 && !begin.generationId;
        if (code === "conflict" || lostEarly) {
          const fresh = await fetchConversation(conversationId).catch(() => null);
          if (fresh?.active_generation_id && mounted.current && controllerRef.current === controller) {
            queryClient.setQueryData(chatKeys.detail(conversationId), fresh);
            if (code === "conflict") dispatch({ type: "generation/superseded" });
            controllerRef.current = null;
            // What the server stored (our message, the reply so far), then the rest as it comes.
            await resync();
            if (mounted.current) void follow(fresh.active_generation_id);
            return;
          }
        }
        if (isApiRequestError(error) && begin.onRefused?.(error)) {
          dispatch({ type: "generation/superseded" });
          return;
        }
        if (code === "notFound" && begin.generationId) {
          // The reply finished (and expired) before we could follow it: show what was stored.
          await resync();
          return;
        }
        dispatch({
          type: "generation/failed",
          code: imageCode(code),
          detail: errorMessage(error),
          problemId: ++problemIds.current,
        });
      } finally {
        if (controllerRef.current === controller) controllerRef.current = null;
      }
    },
    // `follow` (declared below) is only called later, from this render's closure.
    [conversationId, flushTokens, queryClient, resync, syncConversation],
  );

  /** Follows a generation already running on the server (resume on open). */
  const follow = useCallback(
    (generationId: string) => {
      handledGeneration.current = generationId;
      const last = stateRef.current.rows.at(-1);
      const writing = last?.message.role === "bot" && last.message.state === "streaming";
      return start({ action: null, generationId, targetId: writing ? last.message.id : undefined });
    },
    [start],
  );

  const busy = useCallback(() => stateRef.current.streaming !== null || controllerRef.current !== null, []);
  const currentState = useCallback(() => stateRef.current, []);

  const actions = useGenerationActions({ conversationId, requestExtras, currentState, busy, start });
  const { send, regenerate, continueReply, suggest, resubmit, makeImage, remakeImage } = actions;

  const stop = useCallback(() => {
    const streaming = stateRef.current.streaming;
    const controller = controllerRef.current;
    if (!streaming || !controller) return;
    stopRequested.current = true;
    dispatch({ type: "generation/stopping" });
    if (streaming.generationId) stopGeneration(streaming.generationId).catch(() => undefined);
    // The stream normally ends with `done` (the partial reply, state "stopped") right away.
    setTimeout(() => {
      if (controllerRef.current === controller) controller.abort();
    }, stopFallbackMs);
  }, []);

  const selectAlternative = useCallback(
    async (row: ChatRow, index: number) => {
      if (busy()) return;
      const count = row.message.alternative_count;
      if (index < 0 || index >= count || index === row.message.alternative_index) return;
      setSwitching(true);
      setActionError(null);
      try {
        const message = await putAlternative(row.message.id, index);
        if (mounted.current) dispatch({ type: "alternative/selected", message });
      } catch (error) {
        if (mounted.current) setActionError(errorMessage(error));
      } finally {
        if (mounted.current) setSwitching(false);
      }
    },
    [busy],
  );

  const loadPrevious = useCallback(async () => {
    const oldest = stateRef.current.rows.find((row) => !row.message.id.startsWith("local-"));
    if (!oldest || loadingPrevious) return;
    setLoadingPrevious(true);
    setActionError(null);
    try {
      const page = await fetchMessagesBefore(conversationId, oldest.message.id);
      if (mounted.current) dispatch({ type: "page/prepend", page });
    } catch (error) {
      if (mounted.current) setActionError(errorMessage(error));
    } finally {
      if (mounted.current) setLoadingPrevious(false);
    }
  }, [conversationId, loadingPrevious]);

  const dismissProblem = useCallback(() => dispatch({ type: "problem/dismiss" }), []);
  const dismissNotice = useCallback(() => dispatch({ type: "notice/dismiss" }), []);
  /** A message changed outside a generation (edited): show the stored version. */
  const replaceMessage = useCallback(
    (message: Message) => dispatch({ type: "message/replace", message }),
    [],
  );

  // Resume a reply being written when the chat opens (or when a refetch shows one started
  // elsewhere, in another tab).
  const activeGeneration = conversation.active_generation_id;
  useEffect(() => {
    if (!activeGeneration || handledGeneration.current === activeGeneration || controllerRef.current) return;
    void follow(activeGeneration);
  }, [activeGeneration, follow]);

  return {
    state,
    loadingPrevious,
    switching,
    actionError,
    clearActionError: () => setActionError(null),
    showError: setActionError,
    send,
    regenerate,
    continueReply,
    suggest,
    makeImage,
    remakeImage,
    resubmit,
    stop,
    selectAlternative,
    loadPrevious,
    dismissProblem,
    dismissNotice,
    replaceMessage,
    /** Reads the newest page again over what is shown (after messages were removed). */
    reload: resync,
  };
}

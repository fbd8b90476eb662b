import type { GenerateAction, GenerateRequest } from "@hearth/contract";
import { useCallback, useRef } from "react";
import type { ApiRequestError } from "../../lib/api.ts";
import { type ChatState, lastBotRow } from "./chat-state.ts";

/** What one generation action asks useChat's `start` to run. */
export interface GenerationStart {
  action: GenerateAction | null;
  request?: GenerateRequest;
  generationId?: string;
  content?: string;
  targetId?: string;
  retryRowKey?: string;
  /** A picture (type image): its failures are dismissed, never resubmitted as text. */
  image?: boolean;
  /** A refusal before anything started that the caller handles itself (a plan or training modal). */
  onRefused?: (error: ApiRequestError) => boolean;
}

/**
 * The generation actions the chat's buttons call (send, regenerate, continue, suggest, resubmit,
 * the Image button's picture and a picture made again): each builds its request and names the
 * row it writes to, then hands both to `start`. None starts while another generation runs.
 */
export function useGenerationActions({
  conversationId,
  requestExtras,
  currentState,
  busy,
  start,
}: {
  conversationId: string;
  /** Added to every generation request when it is made (the chosen model, generation settings). */
  requestExtras?: () => Partial<GenerateRequest>;
  /** The chat's state as it is now (read when a button is pressed, not when rendered). */
  currentState: () => ChatState;
  busy: () => boolean;
  start: (begin: GenerationStart) => Promise<void>;
}) {
  const extrasRef = useRef(requestExtras);
  extrasRef.current = requestExtras;

  const request = useCallback(
    (action: GenerateAction, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
      conversation_id: conversationId,
      type: "text",
      action,
      ...extrasRef.current?.(),
      ...extra,
    }),
    [conversationId],
  );

  const send = useCallback(
    (content: string) => {
      const text = content.trim();
      if (!text || busy()) return false;
      void start({ action: "send", content: text, request: request("send", { content: text }) });
      return true;
    },
    [request, start, busy],
  );

  const regenerate = useCallback(() => {
    const target = lastBotRow(currentState().rows);
    if (!target || busy()) return;
    // A picture's message is made again as a picture (from its stored prompt), never as text.
    const image = target.message.image_prompt !== null;
    void start({
      action: "regenerate",
      targetId: target.message.id,
      image,
      request: request("regenerate", { message_id: target.message.id, ...(image ? { type: "image" } : {}) }),
    });
  }, [request, start, busy, currentState]);

  const continueReply = useCallback(() => {
    const target = lastBotRow(currentState().rows);
    if (!target || busy()) return;
    void start({
      action: "continue",
      targetId: target.message.id,
      request: request("continue", { message_id: target.message.id }),
    });
  }, [request, start, busy, currentState]);

  const suggest = useCallback(() => {
    if (busy()) return;
    void start({ action: "autopilot", request: request("autopilot") });
  }, [request, start, busy]);

  const resubmit = useCallback(() => {
    const problem = currentState().problem;
    if (problem?.kind !== "generation" || busy()) return;
    const plan = problem.retry;
    switch (plan.action) {
      case "send":
        void start({
          action: "send",
          content: plan.content,
          retryRowKey: plan.rowKey,
          request: request("send", { content: plan.content }),
        });
        return;
      case "regenerate":
      case "continue":
        void start({
          action: plan.action,
          targetId: plan.messageId,
          request: request(plan.action, { message_id: plan.messageId }),
        });
        return;
      case "autopilot":
        void start({ action: "autopilot", request: request("autopilot") });
        return;
      case "resubmit": {
        const target = lastBotRow(currentState().rows);
        const failedReply =
          target && target === currentState().rows.at(-1) && target.message.state === "failed";
        void start({
          action: "resubmit",
          targetId: failedReply ? target.message.id : undefined,
          request: request("resubmit"),
        });
      }
    }
  }, [request, start, busy, currentState]);

  /**
   * The Image button's picture (§4): a new bot message made by the image server, through the
   * same generation call with type image. `onRefused` takes refusals the screen answers with a
   * modal (a plan, training).
   */
  const makeImage = useCallback(
    (onRefused?: (error: ApiRequestError) => boolean) => {
      if (busy()) return false;
      void start({ action: "send", image: true, onRefused, request: request("send", { type: "image" }) });
      return true;
    },
    [request, start, busy],
  );

  /** A picture's message made again from its (edited) prompt, shown on its row while it is made. */
  const remakeImage = useCallback(
    (messageId: string) => {
      if (busy()) return false;
      void start({
        action: "regenerate",
        targetId: messageId,
        image: true,
        request: request("regenerate", { message_id: messageId, type: "image" }),
      });
      return true;
    },
    [request, start, busy],
  );

  return { send, regenerate, continueReply, suggest, resubmit, makeImage, remakeImage };
}

import type { GenerationEvent, Message } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { type ChatAction, type ChatState, chatReducer, initialChatState } from "./chat-state.ts";

/** A picture's generation in the chat's state: its refusals leave nothing behind and offer no Resubmit. */
const now = "2025-01-01T00:00:00.000Z";
const conversationId = "c1";
const bot = (id: string, extra: Partial<Message> = {}): Message => ({
  id,
  conversation_id: conversationId,
  role: "bot",
  content: "",
  state: "complete",
  createdAt: now,
  image_url: null,
  image_prompt: null,
  rating: null,
  alternative_index: 0,
  alternative_count: 1,
  ...extra,
});
const run = (state: ChatState, ...actions: ChatAction[]) => actions.reduce(chatReducer, state);
const event = (e: GenerationEvent): ChatAction => ({
  type: "generation/event",
  event: e,
  now,
  conversationId,
  problemId: 3,
});
const started = (messageId: string, action: "send" | "regenerate"): GenerationEvent => ({
  type: "started",
  generation_id: "gen",
  user_message: null,
  message_id: messageId,
  action,
  base_content: "",
});
const refused: GenerationEvent = {
  type: "error",
  code: "imagePromptUnderage",
  message:
    "The image prompt might contain references to underage context, please consider making changes and try again.",
};

describe("pictures in the chat state", () => {
  const greeting = () =>
    initialChatState({ messages: [bot("g", { content: "Hello" })], has_more: false }, null);

  it("a refused new picture's row goes, and the refusal is a dismissible banner without Resubmit", () => {
    let state = run(greeting(), {
      type: "generation/begin",
      action: "send",
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    });
    state = run(state, event(started("m1", "send")), event(refused));
    expect(state.rows.map((r) => r.message.id)).toEqual(["g"]);
    expect(state.problem).toEqual({
      kind: "refused",
      detail: refused.type === "error" ? refused.message : "",
    });
    expect(run(state, { type: "problem/dismiss" }).problem).toBeNull();
  });

  it("a refused remake keeps the picture the message had", () => {
    const picture = bot("p", { image_url: "/api/files/chat-images/c1/a.png", image_prompt: "a lighthouse" });
    let state = initialChatState({ messages: [picture], has_more: false }, null);
    state = run(state, {
      type: "generation/begin",
      action: "regenerate",
      targetId: "p",
      now,
      conversationId,
    });
    state = run(
      state,
      event(started("p", "regenerate")),
      event({ ...refused, code: "imageContentGuidelines" }),
    );
    expect(state.rows.map((r) => r.message)).toEqual([picture]);
    expect(state.problem?.kind).toBe("refused");
  });

  it("a stopped picture ends with no message and leaves no row", () => {
    let state = run(greeting(), {
      type: "generation/begin",
      action: "send",
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    });
    state = run(
      state,
      event(started("m1", "send")),
      event({
        type: "done",
        message: null,
        suggestion: null,
        context_start_message_id: null,
        trims: [],
        empty: true,
      }),
    );
    expect(state.rows.map((r) => r.message.id)).toEqual(["g"]);
    expect(state.problem).toBeNull();
  });

  it("a made picture replaces its placeholder with the stored message", () => {
    let state = run(greeting(), {
      type: "generation/begin",
      action: "send",
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    });
    const made = bot("m1", { image_url: "/api/files/chat-images/c1/b.png", image_prompt: "Mira at dusk" });
    state = run(
      state,
      event(started("m1", "send")),
      event({
        type: "done",
        message: made,
        suggestion: null,
        context_start_message_id: null,
        trims: [],
        empty: false,
      }),
    );
    expect(state.rows.map((r) => r.message)).toEqual([bot("g", { content: "Hello" }), made]);
    expect(state.streaming).toBeNull();
  });
});

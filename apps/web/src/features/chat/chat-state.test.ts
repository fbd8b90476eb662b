import type { Message } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import {
  alignResumed,
  type ChatAction,
  type ChatState,
  chatReducer,
  initialChatState,
  liveContent,
} from "./chat-state.ts";

const now = "2025-01-01T00:00:00.000Z";
const conversationId = "c1";

function message(id: string, role: Message["role"], content: string, extra: Partial<Message> = {}): Message {
  return {
    id,
    conversation_id: conversationId,
    role,
    content,
    state: "complete",
    createdAt: now,
    image_url: null,
    image_prompt: null,
    rating: null,
    alternative_index: 0,
    alternative_count: 1,
    ...extra,
  };
}

const run = (state: ChatState, ...actions: ChatAction[]) => actions.reduce(chatReducer, state);
const event = (e: Extract<ChatAction, { type: "generation/event" }>["event"]): ChatAction => ({
  type: "generation/event",
  event: e,
  now,
  conversationId,
  problemId: 7,
});
const greeting = () =>
  initialChatState({ messages: [message("g", "bot", "Hello *waves*")], has_more: false }, null);

describe("chatReducer", () => {
  it("sends: optimistic rows keep their keys through started, tokens and done", () => {
    let state = run(greeting(), {
      type: "generation/begin",
      action: "send",
      content: "Hi there",
      userRowKey: "local-user-1",
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    });
    expect(state.rows.map((r) => r.key)).toEqual(["g", "local-user-1", "local-bot-1"]);
    expect(state.rows[1]?.message.content).toBe("Hi there");

    state = run(
      state,
      event({ type: "queued", generation_id: "gen", position: 2, time_left_s: 90 }),
      event({
        type: "started",
        generation_id: "gen",
        action: "send",
        base_content: "",
        user_message: message("u1", "user", "Hi there"),
        message_id: "b1",
      }),
    );
    // Stored, yet still waiting in line until its first tokens.
    expect(state.streaming?.queue).toEqual({ position: 2, timeLeftS: 90 });
    state = run(state, event({ type: "queued", generation_id: "gen", position: 1, time_left_s: 30 }));
    expect(state.streaming?.queue).toEqual({ position: 1, timeLeftS: 30 });
    state = run(
      state,
      { type: "generation/tokens", text: "Hel" },
      { type: "generation/tokens", text: "lo!" },
    );
    expect(state.streaming?.queue).toBeNull();
    expect(state.rows.map((r) => [r.key, r.message.id])).toEqual([
      ["g", "g"],
      ["local-user-1", "u1"],
      ["local-bot-1", "b1"],
    ]);
    const bot = state.rows[2];
    expect(bot && liveContent(bot, state.streaming)).toBe("Hello!");

    state = run(
      state,
      event({
        type: "done",
        message: message("b1", "bot", "Hello!"),
        suggestion: null,
        context_start_message_id: "g",
        trims: [],
        empty: false,
      }),
    );
    expect(state.streaming).toBeNull();
    expect(state.rows[2]).toEqual({ key: "local-bot-1", message: message("b1", "bot", "Hello!") });
    expect(state.contextStartId).toBe("g");
    expect(state.announcement).toEqual({ text: "Hello!", alternative: null });
  });

  it("marks a send refused before it started as unsent, and retries it in the same row", () => {
    let state = run(greeting(), {
      type: "generation/begin",
      action: "send",
      content: "Hi",
      userRowKey: "local-user-1",
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    });
    state = run(state, { type: "generation/failed", code: "internal", detail: "boom", problemId: 3 });
    expect(state.rows.map((r) => [r.key, r.unsent ?? false])).toEqual([
      ["g", false],
      ["local-user-1", true],
    ]);
    expect(state.problem).toEqual({
      kind: "generation",
      detail: "boom",
      id: 3,
      retry: { action: "send", content: "Hi", rowKey: "local-user-1" },
    });

    state = run(state, {
      type: "generation/begin",
      action: "send",
      content: "Hi",
      retryRowKey: "local-user-1",
      pendingRowKey: "local-bot-2",
      now,
      conversationId,
    });
    expect(state.problem).toBeNull();
    expect(state.rows.map((r) => [r.key, r.unsent ?? false])).toEqual([
      ["g", false],
      ["local-user-1", false],
      ["local-bot-2", false],
    ]);
  });

  it("hands the words back to the input on a limit, and resubmits after a failure mid-reply", () => {
    const begin: ChatAction = {
      type: "generation/begin",
      action: "send",
      content: "Again",
      userRowKey: "local-user-1",
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    };
    const limited = run(greeting(), begin, {
      type: "generation/failed",
      code: "limitReached",
      detail: "limit",
      problemId: 1,
    });
    expect(limited.rows.map((r) => r.key)).toEqual(["g"]);
    expect(limited.restoredDraft).toEqual({ id: 1, text: "Again" });
    expect(limited.problem).toEqual({ kind: "limit", detail: "limit" });

    // An administrator's read-only view: the words go back, the server's reason shows, no retry.
    const viewing = run(greeting(), begin, {
      type: "generation/failed",
      code: "impersonating",
      detail: "read-only",
      problemId: 2,
    });
    expect(viewing.rows.map((r) => r.key)).toEqual(["g"]);
    expect(viewing.restoredDraft).toMatchObject({ text: "Again" });
    expect(viewing.problem).toEqual({ kind: "refused", detail: "read-only" });

    // Not this member's turn in the waiting room: the words go back to the box, no retry banner.
    const inLine = run(greeting(), begin, {
      type: "generation/failed",
      code: "waitingRoom",
      detail: "wait your turn",
      problemId: 3,
    });
    expect(inLine.rows.map((r) => r.key)).toEqual(["g"]);
    expect(inLine.restoredDraft).toMatchObject({ text: "Again" });
    expect(inLine.problem).toEqual({ kind: "waiting", detail: "wait your turn" });

    const midway = run(
      greeting(),
      begin,
      event({
        type: "started",
        generation_id: "gen",
        action: "send",
        base_content: "",
        user_message: message("u1", "user", "Again"),
        message_id: "b1",
      }),
      { type: "generation/tokens", text: "Par" },
      event({ type: "error", code: "internal", message: "model crashed" }),
    );
    expect(midway.rows.at(-1)?.message).toMatchObject({ id: "b1", content: "Par", state: "failed" });
    expect(midway.problem).toMatchObject({ kind: "generation", retry: { action: "resubmit" } });
  });

  it("regenerates into the last reply as a new alternative, and continue builds on its text", () => {
    let state = run(greeting(), {
      type: "generation/begin",
      action: "regenerate",
      targetId: "g",
      now,
      conversationId,
    });
    const greetingText = () => {
      const row = state.rows[0];
      return row ? liveContent(row, state.streaming) : undefined;
    };
    expect(greetingText()).toBe("");
    state = run(
      state,
      event({
        type: "started",
        generation_id: "gen",
        user_message: null,
        message_id: "g",
        action: "regenerate",
        base_content: "",
      }),
    );
    expect(state.rows[0]?.message).toMatchObject({ alternative_index: 1, alternative_count: 2 });
    state = run(
      state,
      { type: "generation/tokens", text: "Hi again" },
      event({
        type: "done",
        message: message("g", "bot", "Hi again", { alternative_index: 1, alternative_count: 2 }),
        suggestion: null,
        context_start_message_id: null,
        trims: [],
        empty: false,
      }),
    );
    expect(state.rows).toHaveLength(1);

    state = run(
      state,
      { type: "generation/begin", action: "continue", targetId: "g", now, conversationId },
      event({
        type: "started",
        generation_id: "gen2",
        user_message: null,
        message_id: "g",
        action: "regenerate",
        base_content: "",
      }),
      { type: "generation/tokens", text: " and more" },
    );
    expect(greetingText()).toBe("Hi again and more");
  });

  it("resumes into a reply already on screen and drops the placeholder", () => {
    const page = {
      messages: [
        message("g", "bot", "Hello"),
        message("u1", "user", "Hi"),
        message("b1", "bot", "Par", { state: "streaming" }),
      ],
      has_more: true,
    };
    let state = run(initialChatState(page, null), {
      type: "generation/begin",
      action: null,
      pendingRowKey: "local-bot-1",
      now,
      conversationId,
    });
    expect(state.rows).toHaveLength(4);
    state = run(
      state,
      event({
        type: "started",
        generation_id: "gen",
        user_message: null,
        message_id: "b1",
        action: "regenerate",
        base_content: "",
      }),
      { type: "generation/tokens", text: "Partial" },
    );
    expect(state.rows.map((r) => r.key)).toEqual(["g", "u1", "b1"]);
    expect(state.streaming?.rowKey).toBe("b1");
    const row = state.rows[2];
    expect(row && liveContent(row, state.streaming)).toBe("Partial");
  });

  it("lines a replayed stream up with the text already shown", () => {
    // A reply: the replay starts where the shown text starts.
    expect(alignResumed("Hello wor", "Hel")).toBeNull();
    expect(alignResumed("Hello wor", "Hello world")).toEqual({ base: "" });
    // A continued reply: original text, then the part already written.
    expect(alignResumed("Once upon a time. The dragon", "The dra")).toBeNull();
    expect(alignResumed("Once upon a time. The dragon", "The dragon slept")).toEqual({
      base: "Once upon a time. ",
    });
    // Nothing of the replay stored yet.
    expect(alignResumed("Once upon a time.", " Then")).toEqual({ base: "Once upon a time." });
  });

  it("puts autopilot's suggestion in the input and writes nothing in the list", () => {
    const state = run(
      greeting(),
      { type: "generation/begin", action: "autopilot", now, conversationId },
      event({
        type: "started",
        generation_id: "gen",
        user_message: null,
        message_id: null,
        action: "regenerate",
        base_content: "",
      }),
      { type: "generation/tokens", text: "I wave back" },
      event({
        type: "done",
        message: null,
        suggestion: "I wave back.",
        context_start_message_id: null,
        trims: [],
        empty: false,
      }),
    );
    expect(state.rows.map((r) => r.key)).toEqual(["g"]);
    expect(state.suggestion).toEqual({ id: 1, text: "I wave back." });
  });

  it("says when Continue added nothing, and clears that notice after the next reply", () => {
    const continued = (empty: boolean, text: string) => [
      { type: "generation/begin" as const, action: "continue" as const, targetId: "g", now, conversationId },
      event({
        type: "started",
        generation_id: "gen",
        user_message: null,
        message_id: "g",
        action: "continue",
        base_content: "Hello *waves*",
      }),
      event({
        type: "done",
        message: message("g", "bot", `Hello *waves*${text}`),
        suggestion: null,
        context_start_message_id: null,
        trims: [],
        empty,
      }),
    ];
    let state = run(greeting(), ...continued(true, ""));
    expect(state.notice).toEqual({ id: 1, kind: "nothing-added" });
    state = run(state, ...continued(false, " And welcome."));
    expect(state.notice).toBeNull();
  });

  it("says once per chat that the card was cut to fit; history and examples alone are not news", () => {
    const reply = (trims: { section: "history" | "examples" | "description" }[]) => [
      {
        type: "generation/begin" as const,
        action: "regenerate" as const,
        targetId: "g",
        now,
        conversationId,
      },
      event({
        type: "done",
        message: message("g", "bot", "Hi"),
        suggestion: null,
        context_start_message_id: null,
        trims: trims.map((t) => ({ ...t, kept_tokens: 1, full_tokens: 2 })),
        empty: false,
      }),
    ];
    let state = run(greeting(), ...reply([{ section: "history" }, { section: "examples" }]));
    expect(state.notice).toBeNull();
    state = run(state, ...reply([{ section: "description" }]));
    expect(state.notice?.kind).toBe("definition-cut");
    state = run(state, { type: "notice/dismiss" }, ...reply([{ section: "description" }]));
    expect(state.notice).toBeNull();
  });

  it("a message too long for the model goes back to the input box with the server's words", () => {
    const state = run(
      greeting(),
      {
        type: "generation/begin",
        action: "send",
        content: "Long text",
        userRowKey: "local-user-1",
        pendingRowKey: "local-bot-1",
        now,
        conversationId,
      },
      { type: "generation/failed", code: "messageTooLong", detail: "At most 300 tokens fit.", problemId: 4 },
    );
    expect(state.problem).toEqual({ kind: "tooLong", detail: "At most 300 tokens fit." });
    expect(state.rows.map((r) => r.key)).toEqual(["g"]);
    expect(state.restoredDraft).toEqual({ id: 1, text: "Long text" });
  });

  it("prepends older pages without duplicates and merges a fresh newest page", () => {
    let state = run(greeting(), {
      type: "page/prepend",
      page: {
        messages: [message("a", "user", "old"), message("g", "bot", "Hello *waves*")],
        has_more: false,
      },
    });
    expect(state.rows.map((r) => r.key)).toEqual(["a", "g"]);
    state = run(state, {
      type: "page/merge-newest",
      page: { messages: [message("g", "bot", "Hello *waves*"), message("u", "user", "new")], has_more: true },
      contextStartId: "g",
    });
    expect(state.rows.map((r) => r.key)).toEqual(["a", "g", "u"]);
    expect(state.hasMore).toBe(false);
  });

  it("says which alternative the reader stepped to, and an edit says nothing", () => {
    const two = { alternative_index: 1, alternative_count: 3 };
    let state = run(greeting(), { type: "alternative/selected", message: message("g", "bot", "Hi!", two) });
    expect(state.rows[0]?.message.content).toBe("Hi!");
    expect(state.announcement).toEqual({ text: "Hi!", alternative: { index: 1, count: 3 } });
    state = run(state, { type: "message/replace", message: message("g", "bot", "Edited", two) });
    expect(state.rows[0]?.message.content).toBe("Edited");
    expect(state.announcement).toEqual({ text: "Hi!", alternative: { index: 1, count: 3 } });
  });
});

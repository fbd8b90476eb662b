import { adSlotAfter, type Message } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import type { ChatRow } from "../chat/chat-state.ts";
import { adSlotAfterRow } from "./use-chat-ads.tsx";

const rowOf = (i: number, over: Partial<Message> = {}, unsent = false): ChatRow => ({
  key: `k${i}`,
  unsent,
  message: {
    id: `m${i}`,
    conversation_id: "c",
    role: i % 2 === 0 ? "bot" : "user",
    content: `message ${i}`,
    state: "complete",
    createdAt: "2026-01-01T00:00:00Z",
    image_url: null,
    image_prompt: null,
    rating: null,
    alternative_index: 0,
    alternative_count: 1,
    ...over,
  },
});
const rule = (after: number) => adSlotAfter(after, { min_messages: 10, interval: 10 });
const slotsOf = (rows: ChatRow[], firstPosition = 1, busyFrom = rows.length) =>
  rows.flatMap((row, index) => adSlotAfterRow(index, row, { rule, firstPosition, busyFrom }) ?? []);

describe("ad slots in the message list (chat-and-characters §9)", () => {
  const rows = Array.from({ length: 25 }, (_, i) => rowOf(i));

  it("follow the 11th message, then every 10th", () => {
    expect(slotsOf(rows)).toEqual([11, 21]);
    expect(slotsOf(rows.slice(0, 10))).toEqual([]);
  });

  it("count from the chat's first message when older ones are not loaded", () => {
    // The loaded rows start at the chat's 6th message: the 11th is the 6th loaded row.
    expect(slotsOf(rows.slice(0, 20), 6)).toEqual([11, 21]);
  });

  it("never sit beside a reply being written, nor after an unsent or unfinished message", () => {
    const streaming = [...rows.slice(0, 10), rowOf(10, { state: "streaming" })];
    expect(slotsOf(streaming, 1, 9)).toEqual([]);
    expect(slotsOf([...rows.slice(0, 10), rowOf(10, {}, true)])).toEqual([]);
    expect(slotsOf([...rows.slice(0, 10), rowOf(10, { state: "stopped" })])).toEqual([]);
  });

  it("use the configured threshold and interval", () => {
    const tight = (after: number) => adSlotAfter(after, { min_messages: 0, interval: 3 });
    const at = rows
      .slice(0, 10)
      .flatMap(
        (row, index) => adSlotAfterRow(index, row, { rule: tight, firstPosition: 1, busyFrom: 10 }) ?? [],
      );
    // Never before more than 2 messages, whatever the minimum.
    expect(at).toEqual([3, 6, 9]);
  });
});

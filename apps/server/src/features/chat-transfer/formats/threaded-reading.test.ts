import { CHAT_IMPORT_MESSAGES_MAX } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../../http/errors.ts";
import { CHAT_READS_AT_ONCE, chatReads, readChatInThread } from "./threaded-reading.ts";

const names = { characterName: "Mira", personaName: "Sam" };

const hearthFile = (messages: unknown[], extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      format: "hearth-chat",
      version: 1,
      character: { id: "c", name: "Mira" },
      title: "Night",
      persona: null,
      messages,
      ...extra,
    }),
  );

const message = (text: string, more: Record<string, unknown> = {}) => ({
  role: "bot",
  alternatives: [text],
  alternative_index: 0,
  ...more,
});

/** The error a promise rejects with. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );

describe("reading a whole chat file on its own thread", () => {
  it("answers the chat ready to store, the file moved to the thread", async () => {
    const long = "a".repeat(10_000);
    const file = hearthFile(
      [message("Hello"), message("Second", { alternatives: [long, "Second"], alternative_index: 1 })],
      { memories: [{ content: "Met at night", message_indexes: [1] }] },
    );
    const chat = await readChatInThread(file, names);
    // Moved, not copied: the caller's buffer no longer holds the bytes.
    expect(file.byteLength).toBe(0);
    expect(chat).toMatchObject({ format: "hearth", title: "Night", messageCount: 2, extraAlternatives: 1 });
    expect(chat.last).toMatchObject({ text: "Second", role: "bot" });
    const rows = chat.rowBatches.flatMap((b) => JSON.parse(new TextDecoder().decode(b)) as { id: string }[]);
    expect(rows.map((r) => r)).toMatchObject([
      { n: 0, alternatives: ["Hello"] },
      { n: 1, alternative_index: 1 },
    ]);
    expect(chat.memories).toEqual([
      expect.objectContaining({ content: "Met at night", messageIds: [rows[1]?.id] }),
    ]);
  });

  it("maps a SillyTavern file's names in the thread", async () => {
    const jsonl = `${JSON.stringify({ user_name: "Alex", character_name: "Mira" })}\n${JSON.stringify({ is_user: true, mes: "I am Alex, {{char}}" })}\n`;
    const small = Buffer.from(jsonl);
    const chat = await readChatInThread(small, names);
    // A small Buffer is a view into Node's shared pool: it is copied, the pool left alone.
    expect(small.toString()).toBe(jsonl);
    expect(chat).toMatchObject({
      format: "sillytavern",
      userNamesReplaced: 1,
      last: { text: "I am Sam, Mira" },
    });
  });

  it("answers refusals as the HttpErrors reading here throws", async () => {
    const damaged = await refusal(readChatInThread(hearthFile([message("x", { role: "narrator" })]), names));
    expect(damaged).toBeInstanceOf(HttpError);
    expect(damaged).toMatchObject({ status: 400, code: "invalidRequest" });
    expect((damaged as Error).message).toMatch(/damaged: .* \(at messages\.0\.role\)\./);
    const notChat = await refusal(readChatInThread(Buffer.from("<html>"), names));
    expect(notChat).toMatchObject({ status: 415, code: "unsupportedMediaType" });
  });

  it("refuses a Hearth chat over the message limit with 413 before checking its messages", async () => {
    // Each message is broken: only a count checked first answers 413 rather than 400.
    const many = Array.from({ length: CHAT_IMPORT_MESSAGES_MAX + 1 }, () => 0);
    const error = await refusal(readChatInThread(hearthFile(many), names));
    expect(error).toMatchObject({ status: 413, code: "tooManyMessages" });
    expect((error as Error).message).toContain("100,000 messages");
  });

  it(`reads at most ${CHAT_READS_AT_ONCE} files at once, the others waiting in line`, async () => {
    const big = () =>
      hearthFile(Array.from({ length: 20_000 }, (_, i) => message(`Message ${i} ${"x".repeat(200)}`)));
    let mostRunning = 0;
    let mostWaiting = 0;
    const reads = Array.from({ length: 5 }, () => readChatInThread(big(), names));
    // The line is taken synchronously as each read starts, before any file reaches a thread.
    mostRunning = chatReads.load.running;
    mostWaiting = chatReads.load.waiting;
    const chats = await Promise.all(reads);
    expect(chats.map((c) => c.messageCount)).toEqual(Array(5).fill(20_000));
    expect({ mostRunning, mostWaiting }).toEqual({
      mostRunning: CHAT_READS_AT_ONCE,
      mostWaiting: 5 - CHAT_READS_AT_ONCE,
    });
    expect(chatReads.load).toEqual({ running: 0, waiting: 0 });
  }, 60_000);
});

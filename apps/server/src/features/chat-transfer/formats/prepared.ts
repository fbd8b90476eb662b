import { randomUUID } from "node:crypto";
import { mapNames } from "./names.ts";
import type { ImportedChat, ImportedMemory, ImportedMessage } from "./types.ts";

/** Messages read between two turns of the event loop, when the work gives way. */
const MESSAGES_PER_TURN = 1000;
/**
 * Characters of JSON in one statement's parameter: each is decoded and sent on the event loop,
 * so a batch stays small; a chat of 50 MB is some fifty statements.
 */
const ROWS_CHARS_PER_BATCH = 1024 * 1024;

/** The names a SillyTavern chat's user and character macros become. */
export interface ImportNames {
  characterName: string;
  personaName: string;
}

/**
 * A chat read and made ready to store: everything but its messages as they were read, the
 * messages already as the rows the insert reads (UTF-8 JSON arrays, in batches), their ids given.
 * It is plain data, so it crosses from the reading thread whole, the batches moved, not copied.
 */
export interface PreparedChat extends Omit<ImportedChat, "messages" | "memories"> {
  memories: (Omit<ImportedMemory, "messageIndexes"> & { messageIds: string[] })[];
  messageCount: number;
  /** Alternatives besides the one shown, over all messages. */
  extraAlternatives: number;
  userNamesReplaced: number;
  firstCreatedAt: Date | null;
  last: { text: string; role: ImportedMessage["role"]; createdAt: Date } | null;
  /** Each a JSON array of message rows, in order, as jsonb_to_recordset reads them. */
  rowBatches: Uint8Array[];
}

/**
 * Gives the messages their ids and writes their rows; a SillyTavern chat's names are mapped to
 * the persona's first. `giveWay`, when given, is awaited between slices of messages, so work on
 * the event loop leaves room for other requests.
 */
export async function prepareChat(
  chat: ImportedChat,
  names: ImportNames,
  giveWay?: () => Promise<void>,
): Promise<PreparedChat> {
  const { messages, memories, ...rest } = chat;
  const encoder = new TextEncoder();
  const rowBatches: Uint8Array[] = [];
  const ids: string[] = [];
  let rows: string[] = [];
  let chars = 0;
  const flush = () => {
    if (rows.length) rowBatches.push(encoder.encode(`[${rows.join(",")}]`));
    rows = [];
    chars = 0;
  };
  let replaced = 0;
  let extraAlternatives = 0;
  for (let start = 0; start < messages.length; start += MESSAGES_PER_TURN) {
    const slice = messages.slice(start, start + MESSAGES_PER_TURN);
    if (chat.format === "sillytavern") {
      replaced += mapNames({ ...chat, messages: slice }, names.characterName, names.personaName);
    }
    for (const m of slice) {
      const id = randomUUID();
      const row = JSON.stringify({
        n: ids.length,
        id,
        role: m.role,
        alternatives: m.alternatives,
        alternative_index: m.alternativeIndex,
        state: m.state,
        image_url: m.imageUrl,
        image_prompt: m.imagePrompt,
        rating: m.rating,
        created_at: m.createdAt.toISOString(),
      });
      ids.push(id);
      extraAlternatives += m.alternatives.length - 1;
      rows.push(row);
      chars += row.length;
      if (chars >= ROWS_CHARS_PER_BATCH) flush();
    }
    if (giveWay) await giveWay();
  }
  flush();
  const last = messages.at(-1);
  return {
    ...rest,
    memories: memories.map(({ messageIndexes, ...m }) => ({
      ...m,
      messageIds: messageIndexes.map((i) => ids[i] as string),
    })),
    messageCount: messages.length,
    extraAlternatives,
    userNamesReplaced: replaced,
    firstCreatedAt: messages[0]?.createdAt ?? null,
    last: last
      ? { text: last.alternatives[last.alternativeIndex] ?? "", role: last.role, createdAt: last.createdAt }
      : null,
    rowBatches,
  };
}

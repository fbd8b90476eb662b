import { CHAT_IMPORT_ALTERNATIVES_MAX, CHAT_IMPORT_MESSAGES_MAX } from "@hearth/contract";
import { readDate } from "./dates.ts";
import { tooManyMessages, unusableChatFile } from "./refusals.ts";
import { clean, type ExportedChat, type ImportedChat, type ImportedMessage } from "./types.ts";

/**
 * SillyTavern chats (its `chats/<character>/*.jsonl`): the first line is the chat's metadata
 * `{user_name, character_name, create_date, chat_metadata}`, then one object per message
 * `{name, is_user, is_system?, send_date, mes, swipes?, swipe_id?, swipe_info?, extra?}`.
 * Swipes are a bot message's alternatives, `swipe_id` the one shown.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Message keys Hearth stores (the rest are reported as dropped). */
const KEPT_MESSAGE_KEYS = new Set(["name", "is_user", "is_system", "send_date", "mes", "swipes", "swipe_id"]);
/** Header keys Hearth reads. */
const KEPT_HEADER_KEYS = new Set(["user_name", "character_name", "create_date"]);
const DROPPED_KEYS_MAX = 100;
const OTHER_SPEAKERS_MAX = 20;

const text = (value: unknown): string | null => (typeof value === "string" ? clean(value) : null);

/** Reads a SillyTavern chat; a line that is not a JSON object is refused with its number. */
export function readSillyTavernChat(source: string): ImportedChat {
  const reader = new SillyTavernReader();
  for (const [i, line] of source.split(/\r?\n/).entries()) reader.line(line, i + 1);
  return reader.finish();
}

/**
 * Reads a SillyTavern chat one line at a time, as the file arrives: the message limit is checked
 * at each line, so a chat over it is refused at the first message too many, not after reading
 * the rest.
 */
export class SillyTavernReader {
  private dropped = new Set<string>();
  private chat: ImportedChat = {
    format: "sillytavern",
    title: null,
    personaId: null,
    userName: null,
    characterName: null,
    otherSpeakers: [],
    messages: [],
    memories: [],
    lorebookIds: [],
    skippedSystem: 0,
    skippedEmpty: 0,
    skippedAlternatives: 0,
    droppedKeys: [],
  };
  private speakers = new Set<string>();
  private seenHeader = false;
  private lastDate = new Date();
  private firstDateSet = false;

  private drop(key: string) {
    if (this.dropped.size < DROPPED_KEYS_MAX) this.dropped.add(key);
  }

  /** One line of the file; `number` counts from 1, blank lines included. */
  line(line: string, number: number): void {
    if (!line.trim()) return;
    const { chat } = this;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw unusableChatFile(`Line ${number} is not valid JSON, so this is not a SillyTavern chat file.`);
    }
    if (!isRecord(value)) {
      throw unusableChatFile(`Line ${number} is not a chat message, so this is not a SillyTavern chat file.`);
    }
    if (!this.seenHeader) {
      this.seenHeader = true;
      if (!("mes" in value)) {
        this.readHeader(value);
        return;
      }
    }
    if (chat.messages.length >= CHAT_IMPORT_MESSAGES_MAX) throw tooManyMessages();
    for (const key of Object.keys(value)) {
      if (key === "extra" && isRecord(value.extra)) {
        for (const inner of Object.keys(value.extra)) this.drop(`extra.${inner}`);
      } else if (!KEPT_MESSAGE_KEYS.has(key)) this.drop(key);
    }
    if (value.is_system === true) {
      chat.skippedSystem++;
      return;
    }
    const date = readDate(value.send_date);
    if (date) this.lastDate = date;
    else if (!this.firstDateSet) this.lastDate = new Date();
    this.firstDateSet = true;
    const message = readMessage(value, this.lastDate, chat);
    if (message) {
      chat.messages.push(message);
      const speaker = text(value.name)?.trim();
      if (message.role === "bot" && speaker) this.speakers.add(speaker);
    } else chat.skippedEmpty++;
  }

  private readHeader(value: Record<string, unknown>) {
    const { chat } = this;
    chat.userName = text(value.user_name)?.trim() || null;
    chat.characterName = text(value.character_name)?.trim() || null;
    const created = readDate(value.create_date);
    if (created) {
      this.lastDate = created;
      this.firstDateSet = true;
    }
    for (const key of Object.keys(value)) {
      if (key === "chat_metadata" && isRecord(value.chat_metadata)) {
        for (const inner of Object.keys(value.chat_metadata)) this.drop(`chat_metadata.${inner}`);
      } else if (!KEPT_HEADER_KEYS.has(key)) this.drop(key);
    }
  }

  /** The chat read, once every line is in. */
  finish(): ImportedChat {
    const { chat } = this;
    if (!this.seenHeader) throw unusableChatFile("This file is empty.");
    chat.droppedKeys = [...this.dropped].sort();
    const others = [...this.speakers].filter((name) => name !== chat.characterName);
    // Without a header's name, the first bot speaker is the character.
    if (!chat.characterName && others.length) chat.characterName = others.shift() as string;
    chat.otherSpeakers = others.slice(0, OTHER_SPEAKERS_MAX);
    return chat;
  }
}

function readMessage(
  value: Record<string, unknown>,
  createdAt: Date,
  chat: ImportedChat,
): ImportedMessage | null {
  const role = value.is_user === true ? "user" : "bot";
  const mes = text(value.mes) ?? "";
  let alternatives = [mes];
  let index = 0;
  if (role === "bot" && Array.isArray(value.swipes) && value.swipes.length > 0) {
    const swipes = value.swipes.map((s) => text(s) ?? "");
    const wanted =
      typeof value.swipe_id === "number" && Number.isInteger(value.swipe_id) ? value.swipe_id : 0;
    index = Math.min(Math.max(wanted, 0), swipes.length - 1);
    // `mes` is what SillyTavern shows: it wins over a swipe that says otherwise.
    swipes[index] = mes || (swipes[index] as string);
    if (swipes.length > CHAT_IMPORT_ALTERNATIVES_MAX) {
      chat.skippedAlternatives += swipes.length - CHAT_IMPORT_ALTERNATIVES_MAX;
      const start = Math.min(
        Math.max(index - CHAT_IMPORT_ALTERNATIVES_MAX + 1, 0),
        swipes.length - CHAT_IMPORT_ALTERNATIVES_MAX,
      );
      alternatives = swipes.slice(start, start + CHAT_IMPORT_ALTERNATIVES_MAX);
      index -= start;
    } else alternatives = swipes;
  }
  if (!(alternatives[index] as string).trim() && alternatives.every((a) => !a.trim())) return null;
  return {
    role,
    alternatives,
    alternativeIndex: index,
    state: "complete",
    createdAt,
    imageUrl: null,
    imagePrompt: null,
    rating: null,
  };
}

/** SillyTavern's own form of a date in its header (`2023-10-05@14h26m57s`). */
function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}@${p(date.getHours())}h${p(date.getMinutes())}m${p(date.getSeconds())}s`;
}

/**
 * Writes a conversation as a SillyTavern chat: the persona's name is the user's, every bot
 * message keeps its alternatives as swipes. SillyTavern and Hearth both read it back.
 */
export function writeSillyTavernChat(chat: ExportedChat): string {
  const lines: string[] = [
    JSON.stringify({
      user_name: chat.persona.name,
      character_name: chat.characterName,
      create_date: stamp(chat.createdAt),
      chat_metadata: {},
    }),
  ];
  for (const m of chat.messages) {
    const sendDate = m.createdAt.toISOString();
    const line: Record<string, unknown> = {
      name: m.role === "user" ? chat.persona.name : chat.characterName,
      is_user: m.role === "user",
      is_system: false,
      send_date: sendDate,
      mes: m.content,
      extra: {},
    };
    if (m.role === "bot") {
      line.swipes = m.alternatives;
      line.swipe_id = m.alternativeIndex;
      line.swipe_info = m.alternatives.map(() => ({ send_date: sendDate, extra: {} }));
    }
    lines.push(JSON.stringify(line));
  }
  return `${lines.join("\n")}\n`;
}

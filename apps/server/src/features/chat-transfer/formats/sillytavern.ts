import { CHAT_IMPORT_ALTERNATIVES_MAX, CHAT_IMPORT_MESSAGES_MAX } from "@hearth/contract";
import { unusableChatFile } from "../policy.ts";
import { readDate } from "./dates.ts";
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
  const lines = source.split(/\r?\n/);
  const dropped = new Set<string>();
  const drop = (key: string) => {
    if (dropped.size < DROPPED_KEYS_MAX) dropped.add(key);
  };
  const chat: ImportedChat = {
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
  const speakers = new Set<string>();
  let seenHeader = false;
  let lastDate = new Date();
  let firstDateSet = false;
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw unusableChatFile(`Line ${i + 1} is not valid JSON, so this is not a SillyTavern chat file.`);
    }
    if (!isRecord(value)) {
      throw unusableChatFile(`Line ${i + 1} is not a chat message, so this is not a SillyTavern chat file.`);
    }
    if (!seenHeader) {
      seenHeader = true;
      if (!("mes" in value)) {
        chat.userName = text(value.user_name)?.trim() || null;
        chat.characterName = text(value.character_name)?.trim() || null;
        const created = readDate(value.create_date);
        if (created) {
          lastDate = created;
          firstDateSet = true;
        }
        for (const key of Object.keys(value)) {
          if (key === "chat_metadata" && isRecord(value.chat_metadata)) {
            for (const inner of Object.keys(value.chat_metadata)) drop(`chat_metadata.${inner}`);
          } else if (!KEPT_HEADER_KEYS.has(key)) drop(key);
        }
        continue;
      }
    }
    if (chat.messages.length >= CHAT_IMPORT_MESSAGES_MAX) {
      throw unusableChatFile(`This chat has more than ${CHAT_IMPORT_MESSAGES_MAX} messages.`);
    }
    for (const key of Object.keys(value)) {
      if (key === "extra" && isRecord(value.extra)) {
        for (const inner of Object.keys(value.extra)) drop(`extra.${inner}`);
      } else if (!KEPT_MESSAGE_KEYS.has(key)) drop(key);
    }
    if (value.is_system === true) {
      chat.skippedSystem++;
      continue;
    }
    const date = readDate(value.send_date);
    if (date) lastDate = date;
    else if (!firstDateSet) lastDate = new Date();
    firstDateSet = true;
    const message = readMessage(value, lastDate, chat);
    if (message) {
      chat.messages.push(message);
      const speaker = text(value.name)?.trim();
      if (message.role === "bot" && speaker) speakers.add(speaker);
    } else chat.skippedEmpty++;
  }
  if (!seenHeader) throw unusableChatFile("This file is empty.");
  chat.droppedKeys = [...dropped].sort();
  const others = [...speakers].filter((name) => name !== chat.characterName);
  // Without a header's name, the first bot speaker is the character.
  if (!chat.characterName && others.length) chat.characterName = others.shift() as string;
  chat.otherSpeakers = others.slice(0, OTHER_SPEAKERS_MAX);
  return chat;
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

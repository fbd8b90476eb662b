import {
  CHAT_IMPORT_ALTERNATIVES_MAX,
  CHAT_IMPORT_MESSAGES_MAX,
  HEARTH_CHAT_FORMAT,
  type HearthChatFile,
  hearthChatFile,
  MEMORIES_PER_CONVERSATION_MAX,
} from "@hearth/contract";
import { tooManyMessages, unusableChatFile } from "./refusals.ts";
import { clean, type ExportedChat, type ImportedChat } from "./types.ts";

/**
 * Hearth's own chat file: every message with all its alternatives and the one shown, the
 * persona, the title, the memories (tied to their messages by place) and the attached lorebooks.
 * Importing it gives back the same conversation.
 */

/** Whether parsed JSON claims to be Hearth's chat file (then it must be one). */
export const isHearthChat = (json: unknown): boolean =>
  typeof json === "object" && json !== null && (json as { format?: unknown }).format === HEARTH_CHAT_FORMAT;

const date = (value: string | undefined): Date | null => {
  if (!value) return null;
  const parsed = new Date(value);
  return Number.isFinite(parsed.getTime()) ? parsed : null;
};

/** Only Hearth's own images come back (a path on this site): a file cannot make the chat load others'. */
const ownImage = (url: string | null | undefined): string | null =>
  url?.startsWith("/") && !url.startsWith("//") && !url.includes("\\") ? url : null;

/** Reads Hearth's chat file, checked by the contract's schema; a broken one is refused with the first problem. */
export function readHearthChat(json: unknown): ImportedChat {
  // Counted before the schema reads each message: a chat over the limit is refused as it would
  // be in SillyTavern's format, without checking messages it will not take.
  const listed = (json as { messages?: unknown }).messages;
  if (Array.isArray(listed) && listed.length > CHAT_IMPORT_MESSAGES_MAX) throw tooManyMessages();
  const parsed = hearthChatFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join(".")})` : "";
    throw unusableChatFile(`This Hearth chat file is damaged: ${issue?.message ?? "unreadable"}${where}.`);
  }
  const file = parsed.data;
  let skippedAlternatives = 0;
  let fallback = date(file.created_at) ?? new Date();
  const messages = file.messages.map((m) => {
    let alternatives = m.alternatives.map(clean);
    let index = Math.min(m.alternative_index, alternatives.length - 1);
    if (alternatives.length > CHAT_IMPORT_ALTERNATIVES_MAX) {
      skippedAlternatives += alternatives.length - CHAT_IMPORT_ALTERNATIVES_MAX;
      const start = Math.min(index, alternatives.length - CHAT_IMPORT_ALTERNATIVES_MAX);
      alternatives = alternatives.slice(start, start + CHAT_IMPORT_ALTERNATIVES_MAX);
      index -= start;
    }
    const createdAt = date(m.created_at) ?? fallback;
    fallback = createdAt;
    return {
      role: m.role,
      alternatives,
      alternativeIndex: index,
      // A reply cut off while it was written stays cut off.
      state: m.state === "streaming" ? ("interrupted" as const) : m.state,
      createdAt,
      imageUrl: ownImage(m.image_url),
      imagePrompt: m.image_prompt == null ? null : clean(m.image_prompt),
      rating: m.rating ?? null,
    };
  });
  const memories = file.memories
    .map((m) => ({
      content: clean(m.content).trim(),
      pinned: m.pinned,
      source: m.source,
      messageIndexes: m.message_indexes,
      createdAt: date(m.created_at),
    }))
    .filter((m) => m.content && m.messageIndexes.every((i) => i < messages.length))
    .slice(0, MEMORIES_PER_CONVERSATION_MAX);
  return {
    format: "hearth",
    title: file.title === null ? null : clean(file.title).slice(0, 50) || null,
    personaId: file.persona?.id ?? null,
    userName: file.persona?.name ?? null,
    characterName: file.character.name,
    otherSpeakers: [],
    messages,
    memories,
    lorebookIds: file.lorebooks.map((b) => b.id),
    skippedSystem: 0,
    skippedEmpty: 0,
    skippedAlternatives,
    droppedKeys:
      memories.length < file.memories.length
        ? [`memories (${file.memories.length - memories.length} left out)`]
        : [],
  };
}

/** Writes Hearth's chat file (pretty-printed JSON). */
export function writeHearthChat(chat: ExportedChat): string {
  const place = new Map(chat.messages.map((m, i) => [m.id, i]));
  const file: HearthChatFile = {
    format: HEARTH_CHAT_FORMAT,
    version: 1,
    exported_at: new Date().toISOString(),
    character: { id: chat.characterId, name: chat.characterName },
    title: chat.title,
    persona: chat.persona,
    created_at: chat.createdAt.toISOString(),
    messages: chat.messages.map((m) => ({
      role: m.role,
      alternatives: m.alternatives.length ? m.alternatives : [m.content],
      alternative_index: m.alternatives.length ? m.alternativeIndex : 0,
      state: m.state,
      created_at: m.createdAt.toISOString(),
      image_url: m.imageUrl,
      image_prompt: m.imagePrompt,
      rating: m.rating,
    })),
    memories: chat.memories.map((m) => ({
      content: m.content,
      pinned: m.pinned,
      source: m.source,
      message_indexes: m.messageIds.flatMap((id) => {
        const i = place.get(id);
        return i === undefined ? [] : [i];
      }),
      created_at: m.createdAt.toISOString(),
    })),
    lorebooks: chat.lorebooks,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

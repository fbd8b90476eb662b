import {
  type ChatExportFormat,
  type ChatImportReport,
  LOREBOOKS_PER_CONVERSATION_MAX,
} from "@hearth/contract";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { AuditWriter, Viewer } from "../accounts/index.ts";
import { chattable } from "../chats/index.ts";
import { findPersona, personaNotFound, resolvePersonaForPrompt } from "../personas/index.ts";
import { isHearthChat, writeHearthChat } from "./formats/hearth.ts";
import { CHAT_LINE_MAX_CHARS, LineSplitter } from "./formats/lines.ts";
import { type ImportNames, type PreparedChat, prepareChat } from "./formats/prepared.ts";
import { writeMarkdown, writePrintablePage } from "./formats/readable.ts";
import { notAChatFile } from "./formats/refusals.ts";
import { SillyTavernReader, writeSillyTavernChat } from "./formats/sillytavern.ts";
import { FileBlocks, readChatInThread } from "./formats/threaded-reading.ts";
import type { ExportedChat, ImportedChat } from "./formats/types.ts";
import { assertCanExportChat } from "./policy.ts";
import {
  findConversationForExport,
  insertImportedChat,
  ownLorebookIds,
  readConversationContents,
} from "./queries.ts";

export { readChatFile } from "./formats/whole.ts";

export interface ChatTransferDeps {
  db: Db;
  edition: Config["edition"];
  /** The audit log (moderation's writer): an administrator exporting another member's chat is recorded. */
  audit?: AuditWriter;
}

/** The next turn of the event loop: other requests are answered meanwhile. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads a chat file as it arrives. When its first line is a JSON object of its own (and not
 * Hearth's file), it is SillyTavern's JSONL, read line by line and refused at the first message
 * past the limit without reading on. Anything else is one JSON document (Hearth's chat file),
 * collected whole within the upload's byte limit and answered as it is, for a reading thread.
 */
export async function readChatStream(
  chunks: AsyncIterable<Buffer>,
): Promise<{ chat: ImportedChat } | { whole: FileBlocks }> {
  const it = chunks[Symbol.asyncIterator]();
  try {
    const held: Buffer[] = [];
    let size = 0;
    let first: { line: string } | "none" | null = null;
    while (first === null) {
      const next = await it.next();
      if (next.done) break;
      held.push(next.value);
      size += next.value.length;
      // The head is decoded again only when a line may have ended (or it grew too long).
      if (held.length === 1 || next.value.includes(10) || size > CHAT_LINE_MAX_CHARS) first = firstLine(held);
    }
    if (first === null || first === "none" || !startsLines(first.line)) {
      const whole = new FileBlocks();
      for (const chunk of held) whole.push(chunk);
      held.length = 0;
      for (let next = await it.next(); !next.done; next = await it.next()) whole.push(next.value);
      return { whole };
    }
    const splitter = new LineSplitter();
    const reader = new SillyTavernReader();
    let number = 0;
    const feed = (lines: string[]) => {
      for (const line of lines) reader.line(line, ++number);
    };
    for (const chunk of held) feed(splitter.push(chunk));
    for (let next = await it.next(); !next.done; next = await it.next()) {
      feed(splitter.push(next.value));
      // Chunks already buffered would otherwise be read in one turn of the event loop: one
      // chunk's lines at a time keeps other requests answered meanwhile.
      await nextTurn();
    }
    feed(splitter.end());
    return { chat: reader.finish() };
  } finally {
    await it.return?.();
  }
}

/**
 * The file's first non-blank line once it is complete; null while it may still grow; "none"
 * when the start is not a chat's or the first line is too long for a line of JSONL.
 */
function firstLine(held: Buffer[]): { line: string } | "none" | null {
  const head = (held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held)).toString("utf8");
  const text = head.replace(/^\uFEFF/, "").trimStart();
  if (text && !text.startsWith("{")) throw notAChatFile();
  const end = text.indexOf("\n");
  if (end >= 0) return { line: text.slice(0, end) };
  return head.length > CHAT_LINE_MAX_CHARS ? "none" : null;
}

/** Whether a first line is a JSONL file's: a JSON object on its own that is not Hearth's whole file. */
function startsLines(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) && !isHearthChat(value);
  } catch {
    return false;
  }
}

export class ChatTransferService {
  constructor(private deps: ChatTransferDeps) {}

  /**
   * Imports a chat file as a new saved conversation with a character the viewer may chat with.
   * The persona is the one asked for (the viewer's own), else a Hearth file's own when it is the
   * viewer's, else the default (stored as none, as a new chat does).
   */
  async importChat(
    viewer: Viewer,
    input: { characterId: string; userPersonaId: string | null; data: Buffer | AsyncIterable<Buffer> },
    options: { lorebookIds?: ReadonlyMap<string, string> } = {},
  ): Promise<ChatImportReport> {
    const { db } = this.deps;
    const character = await chattable(db, viewer, input.characterId, this.deps.edition);
    if (input.userPersonaId && !(await findPersona(db, viewer.id, input.userPersonaId)))
      throw personaNotFound();
    // A SillyTavern chat's names become the persona asked for (its file names none of Hearth's).
    const asked = await resolvePersonaForPrompt(db, viewer.id, input.userPersonaId);
    const names: ImportNames = { characterName: character.name, personaName: asked.name };
    const chat = await this.readChat(input.data, names);
    let personaId = input.userPersonaId;
    if (!personaId && chat.personaId && (await findPersona(db, viewer.id, chat.personaId))) {
      personaId = chat.personaId;
    }
    const persona =
      personaId === input.userPersonaId ? asked : await resolvePersonaForPrompt(db, viewer.id, personaId);
    // An account archive's books get new ids here: the chat is attached to those.
    const bookIds = chat.lorebookIds.map((id) => options.lorebookIds?.get(id) ?? id);
    const own = (await ownLorebookIds(db, viewer.id, bookIds)).slice(0, LOREBOOKS_PER_CONVERSATION_MAX);
    const conversation = await insertImportedChat(db, {
      userId: viewer.id,
      characterId: character.id,
      userPersonaId: personaId,
      chat,
      lorebookIds: own,
    });
    return {
      conversation_id: conversation.id,
      character_id: character.id,
      format: chat.format,
      messages: chat.messageCount,
      alternatives: chat.extraAlternatives,
      skipped_system_messages: chat.skippedSystem,
      skipped_empty_messages: chat.skippedEmpty,
      skipped_alternatives: chat.skippedAlternatives,
      dropped_metadata_keys: chat.droppedKeys,
      character_name_from: chat.characterName,
      other_speakers: chat.otherSpeakers,
      user_name_from: chat.userName,
      user_name_to: persona.name,
      user_names_replaced: chat.userNamesReplaced,
      memories: chat.memories.length,
      lorebooks: own.length,
      lorebooks_not_found: new Set(bookIds).size - own.length,
    };
  }

  /**
   * A whole file (one JSON document, or a file handed in at once) is read on a reading thread;
   * a SillyTavern chat read as it arrived is prepared here, giving way between slices of it.
   */
  private async readChat(data: Buffer | AsyncIterable<Buffer>, names: ImportNames): Promise<PreparedChat> {
    const read = Buffer.isBuffer(data) ? { whole: data } : await readChatStream(data);
    if ("whole" in read) return readChatInThread(read.whole, names);
    return prepareChat(read.chat, names, nextTurn);
  }

  /** A conversation as a file: its body, type and download name. Owner or administrator only. */
  async exportChat(
    viewer: Viewer | null,
    conversationId: string,
    format: ChatExportFormat,
  ): Promise<{ body: string; contentType: string; filename: string; inline: boolean }> {
    const { db } = this.deps;
    const found = await findConversationForExport(db, conversationId);
    assertCanExportChat(viewer, found?.conversation ?? null);
    const { conversation, characterName } = found as NonNullable<typeof found>;
    if (viewer && viewer.id !== conversation.userId) {
      await this.deps.audit?.({
        actorUserId: viewer.id,
        action: "conversation.export",
        targetType: "conversation",
        targetId: conversation.id,
        after: { owner_id: conversation.userId, format },
      });
    }
    const contents = await readConversationContents(db, conversation.id);
    const persona = await resolvePersonaForPrompt(db, conversation.userId, conversation.userPersonaId);
    const chat: ExportedChat = {
      conversationId: conversation.id,
      characterId: conversation.characterId,
      characterName,
      title: conversation.label,
      persona: { id: conversation.userPersonaId, name: persona.name },
      createdAt: conversation.createdAt,
      messages: contents.messages.map((m) => {
        // `content` is the shown alternative's text (a streaming reply's newest text too).
        const alternatives = m.alternatives.length ? [...m.alternatives] : [m.content];
        const index = Math.min(m.alternativeIndex, alternatives.length - 1);
        alternatives[index] = m.content;
        return {
          id: m.id,
          role: m.role,
          content: m.content,
          alternatives,
          alternativeIndex: index,
          state: m.state,
          createdAt: m.createdAt,
          imageUrl: m.imageUrl,
          imagePrompt: m.imagePrompt,
          rating: m.rating,
        };
      }),
      memories: contents.memories,
      lorebooks: contents.lorebooks,
    };
    const name = exportName(characterName, conversation.label, conversation.createdAt);
    switch (format) {
      case "sillytavern":
        return {
          body: writeSillyTavernChat(chat),
          contentType: "application/jsonl; charset=utf-8",
          filename: `${name}.jsonl`,
          inline: false,
        };
      case "markdown":
        return {
          body: writeMarkdown(chat),
          contentType: "text/markdown; charset=utf-8",
          filename: `${name}.md`,
          inline: false,
        };
      case "html":
        return {
          body: writePrintablePage(chat),
          contentType: "text/html; charset=utf-8",
          filename: `${name}.html`,
          inline: true,
        };
      default:
        return {
          body: writeHearthChat(chat),
          contentType: "application/json; charset=utf-8",
          filename: `${name}.hearth.json`,
          inline: false,
        };
    }
  }
}

/** "Mira - Stormy night - 2026-11-25": safe in every file system. */
export function exportName(characterName: string, title: string | null, createdAt: Date): string {
  const safe = (text: string) =>
    [...text]
      .filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127 && !'\\/:*?"<>|'.includes(c))
      .join("")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 60);
  const parts = [
    safe(characterName) || "Chat",
    title ? safe(title) : "",
    createdAt.toISOString().slice(0, 10),
  ];
  return parts.filter(Boolean).join(" - ");
}

/** Content-Disposition with an ASCII name and the UTF-8 one (RFC 6266). */
export function contentDisposition(filename: string, inline: boolean): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

import { z } from "zod";
import { messageRole, messageState } from "./chats.ts";
import { uuidParam } from "./endpoint.ts";
import { int32, nonNegativeInt32 } from "./integers.ts";
import { MEMORY_CONTENT_MAX } from "./memories.ts";

/**
 * Chat import and export (issue 19 items 2 and 3): a SillyTavern chat (JSONL) or Hearth's own
 * JSON file becomes a new conversation with an existing character; a conversation is downloaded
 * as SillyTavern JSONL, Hearth JSON, Markdown, or opened as a printable page.
 */

/** The largest chat file an import accepts (a 10,000-message SillyTavern chat is a few MB). */
export const CHAT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** The most messages one import may hold. */
export const CHAT_IMPORT_MESSAGES_MAX = 100_000;
/** The most alternatives (swipes) one message keeps; more are left out and counted. */
export const CHAT_IMPORT_ALTERNATIVES_MAX = 100;

/** POST /api/conversations/import?character_id=&user_persona_id= (multipart field `file`). */
export const chatImportQuery = z.object({
  /** The character the imported chat is with (one the member may chat with). */
  character_id: uuidParam,
  /** The persona the file's user becomes; the member's default persona when left out. */
  user_persona_id: uuidParam.optional(),
});
export type ChatImportQuery = z.infer<typeof chatImportQuery>;

export const chatFileFormat = z.enum(["sillytavern", "hearth"]);

/** What an import kept and what it left out. */
export const chatImportReport = z.object({
  conversation_id: z.string(),
  character_id: z.string(),
  format: chatFileFormat,
  /** Messages stored. */
  messages: z.number().int(),
  /** Alternatives stored beyond each message's first (SillyTavern swipes, Hearth regenerations). */
  alternatives: z.number().int(),
  /** SillyTavern system messages (narrator notes, slash-command output), left out. */
  skipped_system_messages: z.number().int(),
  /** Messages without any text, left out. */
  skipped_empty_messages: z.number().int(),
  /** Alternatives past CHAT_IMPORT_ALTERNATIVES_MAX, left out. */
  skipped_alternatives: z.number().int(),
  /** Keys of the file's metadata and messages Hearth has no place for (chat_metadata.note_prompt, extra.api…). */
  dropped_metadata_keys: z.array(z.string()),
  /** SillyTavern's character_name; its messages are now the chosen character's (null: none named). */
  character_name_from: z.string().nullable(),
  /** Other speakers in the file (a group chat's members, a narrator), whose messages became the character's too. */
  other_speakers: z.array(z.string()),
  /** The file's user name, now the persona's name (null when the file named none). */
  user_name_from: z.string().nullable(),
  user_name_to: z.string(),
  /** Times `{{user}}` or the file's user name in the text became the persona's name. */
  user_names_replaced: z.number().int(),
  /** Hearth files: memories restored, and lorebooks re-attached (only the member's own books). */
  memories: z.number().int(),
  lorebooks: z.number().int(),
  lorebooks_not_found: z.number().int(),
});
export type ChatImportReport = z.infer<typeof chatImportReport>;

/** GET /api/conversations/{id}/export?format= */
export const chatExportFormat = z.enum(["sillytavern", "hearth", "markdown", "html"]);
export type ChatExportFormat = z.infer<typeof chatExportFormat>;
export const chatExportQuery = z.object({
  format: chatExportFormat.default("hearth"),
});

/** The identifier at the top of Hearth's chat file. */
export const HEARTH_CHAT_FORMAT = "hearth-chat";

const isoDate = z.string().max(64);

/** One message of Hearth's chat file: every alternative, and which one is shown. */
export const hearthChatMessage = z.object({
  role: messageRole,
  /** The alternatives (a user message has one); `alternatives[alternative_index]` is the message. */
  alternatives: z.array(z.string()).min(1),
  alternative_index: nonNegativeInt32(),
  state: messageState.default("complete"),
  created_at: isoDate.optional(),
  image_url: z.string().max(2000).nullable().optional(),
  image_prompt: z.string().max(20_000).nullable().optional(),
  rating: int32(1, 4).nullable().optional(),
});
export type HearthChatMessage = z.infer<typeof hearthChatMessage>;

/** Hearth's own chat file: everything a conversation needs to come back identical. */
export const hearthChatFile = z.object({
  format: z.literal(HEARTH_CHAT_FORMAT),
  version: z.literal(1),
  exported_at: isoDate.optional(),
  character: z.object({ id: z.string().max(100), name: z.string().max(500) }),
  title: z.string().max(200).nullable(),
  /** The persona the member played (its id only re-attaches for the same member). */
  persona: z.object({ id: z.string().max(100).nullable(), name: z.string().max(500) }).nullable(),
  created_at: isoDate.optional(),
  messages: z.array(hearthChatMessage).max(CHAT_IMPORT_MESSAGES_MAX),
  memories: z
    .array(
      z.object({
        content: z.string().min(1).max(MEMORY_CONTENT_MAX),
        pinned: z.boolean().default(false),
        source: z.enum(["manual", "auto"]).default("manual"),
        /** The messages (their places in `messages`) an automatic memory was written from. */
        message_indexes: z.array(nonNegativeInt32()).default([]),
        created_at: isoDate.optional(),
      }),
    )
    .default([]),
  lorebooks: z.array(z.object({ id: z.string().max(100), name: z.string().max(500) })).default([]),
});
export type HearthChatFile = z.infer<typeof hearthChatFile>;

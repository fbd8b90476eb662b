import { z } from "zod";
import { characterCard } from "./characters.ts";
import { uuidParam } from "./endpoint.ts";
import { errorCode } from "./errors.ts";
import { int32, nonNegativeInt32, queryInt32 } from "./integers.ts";
import { promptTrim } from "./prompt.ts";

export const TITLE_MAX = 50;
export const CONVERSATION_PAGE_SIZE = 25;
/** Messages per page when a chat opens or loads previous ones (the server's default). */
export const MESSAGE_PAGE_SIZE = 30;
/** The most conversations or messages one page may ask for. */
export const CHAT_PAGE_MAX = 100;
export const MESSAGE_MAX = 20_000;
export const IMAGE_PROMPT_MAX = 2000;

/** Message roles as the spec names them; `bot` is sent to the model as `assistant`. */
export const messageRole = z.enum(["user", "bot"]);

/** A reply being written, one that was stopped or cut off by a crash, or a finished one. */
export const messageState = z.enum(["complete", "streaming", "stopped", "interrupted", "failed"]);

export const message = z.object({
  id: z.string(),
  conversation_id: z.string(),
  role: messageRole,
  content: z.string(),
  state: messageState,
  createdAt: z.string(),
  image_url: z.string().nullable(),
  image_prompt: z.string().nullable(),
  rating: z.number().int().min(1).max(4).nullable(),
  /** Regenerated alternatives of a bot message: how many, and which one `content` shows. */
  alternative_index: z.number().int().min(0),
  alternative_count: z.number().int().min(1),
});
export type Message = z.infer<typeof message>;

export const conversation = z.object({
  id: z.string(),
  character_id: z.string(),
  character: characterCard,
  user_persona_id: z.string().nullable(),
  label: z.string().nullable(),
  voiceId: z.string().nullable(),
  last_message: z.object({ createdAt: z.string(), content: z.string(), role: messageRole }).nullable(),
  message_count: z.number().int(),
  /** Messages before this one no longer fit the context and are not sent to the model. */
  context_start_message_id: z.string().nullable(),
  /** Guests' conversations are temporary and never listed. */
  is_saved: z.boolean(),
  /** A reply being generated right now: a client that (re)opens the chat resumes its stream. */
  active_generation_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Conversation = z.infer<typeof conversation>;

/** GET /api/conversations?limit=25&last_id=... */
export const conversationListQuery = z.object({
  limit: queryInt32(1, CHAT_PAGE_MAX).default(CONVERSATION_PAGE_SIZE),
  /** The last conversation of the previous page. */
  last_id: uuidParam.optional(),
});
export const conversationList = z.object({
  conversations: z.array(conversation),
  /** True when this page holds the last conversation: no Load More. */
  is_last_id: z.boolean(),
});
export type ConversationList = z.infer<typeof conversationList>;

/** POST /api/conversations */
export const conversationCreate = z.object({
  character_id: uuidParam,
  user_persona_id: z.string().max(100).nullable().optional(),
});
export const conversationCreated = z.object({ conversation, messages: z.array(message) });
export type ConversationCreated = z.infer<typeof conversationCreated>;

/** GET /api/conversations/{id}/messages?before=ID&limit=N: newest page first, each page oldest→newest. */
export const messagePageQuery = z.object({
  limit: queryInt32(1, CHAT_PAGE_MAX).default(MESSAGE_PAGE_SIZE),
  /** The oldest message already shown: the page before it. */
  before: uuidParam.optional(),
});
export const messagePage = z.object({
  messages: z.array(message),
  has_more: z.boolean(),
});
export type MessagePage = z.infer<typeof messagePage>;

/** Generation settings of chat-and-characters §5; the server clamps to these ranges and the tier. */
export const generationSettings = z.object({
  max_new_tokens: int32(180, 300).optional(),
  temperature: z.number().min(0).max(1.5).optional(),
  top_p: z.number().min(0.01).max(1).optional(),
  top_k: int32(1, 100).optional(),
});
export type GenerationSettings = z.infer<typeof generationSettings>;

export const generateAction = z.enum(["send", "regenerate", "continue", "autopilot", "resubmit"]);
export type GenerateAction = z.infer<typeof generateAction>;

/** POST /api/generate: every generation goes through this one call (spec §7). */
export const generateRequest = z.object({
  conversation_id: uuidParam,
  type: z.enum(["text", "image"]).default("text"),
  action: generateAction,
  /** The user's message, for `send`. */
  content: z.string().trim().min(1, "Write something first").max(MESSAGE_MAX).optional(),
  /** The bot message to regenerate or continue (default: the last one). */
  message_id: uuidParam.optional(),
  model_id: z.string().max(200).optional(),
  settings: generationSettings.optional(),
});
export type GenerateRequest = z.infer<typeof generateRequest>;

/** Server-sent events of a generation; each carries an SSE id to resume from. */
export const generationEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("queued"),
    generation_id: z.string(),
    position: z.number().int(),
    time_left_s: z.number(),
  }),
  z.object({
    type: z.literal("started"),
    generation_id: z.string(),
    /** The stored user message, for `send`. */
    user_message: message.nullable(),
    /** The bot message being written (null for autopilot, which writes into the input box). */
    message_id: z.string().nullable(),
    action: generateAction,
    /** For continue: the reply's text before this generation; tokens are appended to it. */
    base_content: z.string(),
  }),
  z.object({ type: z.literal("token"), text: z.string() }),
  z.object({
    type: z.literal("done"),
    /** The stored reply; null for autopilot. */
    message: message.nullable(),
    /** Autopilot's suggestion for the input box. */
    suggestion: z.string().nullable(),
    context_start_message_id: z.string().nullable(),
    /** What was cut from the prompt to fit the model's window (empty when nothing was). */
    trims: z.array(promptTrim),
    /** The reply added nothing (a continue that ended at once, say): the client says so. */
    empty: z.boolean(),
  }),
  z.object({ type: z.literal("error"), code: errorCode, message: z.string() }),
]);
export type GenerationEvent = z.infer<typeof generationEvent>;

export const conversationUpdate = z
  .object({
    label: z.string().trim().min(1).max(TITLE_MAX).nullable().optional(),
    user_persona_id: z.string().max(100).nullable().optional(),
    voiceId: z.string().max(100).nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");

export const messageSelectAlternative = z.object({ alternative_index: nonNegativeInt32() });

/** PUT/PATCH /api/messages/{id}: the new text (or image prompt) of a message. */
export const messageEdit = z
  .object({
    content: z.string().trim().min(1, "A message cannot be empty").max(MESSAGE_MAX).optional(),
    image_prompt: z.string().trim().min(1).max(IMAGE_PROMPT_MAX).optional(),
  })
  .refine((v) => v.content !== undefined || v.image_prompt !== undefined, "Nothing to change");

/** DELETE /api/conversations/{id}/messages?from=ID: that message and every one after it. */
export const removeMessagesQuery = z.object({ from: uuidParam });
export const removedMessages = z.object({ removed: z.number().int(), conversation });
export type RemovedMessages = z.infer<typeof removedMessages>;

/** POST /api/conversations/{id}/clone: the whole chat, or up to (and including) one message. */
export const conversationClone = z
  .object({
    label: z.string().trim().min(1, "A title is required").max(TITLE_MAX),
    mode: z.enum(["full", "partial"]),
    up_to_message_id: uuidParam.optional(),
  })
  .refine((v) => v.mode === "full" || v.up_to_message_id, {
    message: "Choose the last message to include",
    path: ["up_to_message_id"],
  });
export const clonedConversation = z.object({ conversation });
export type ClonedConversation = z.infer<typeof clonedConversation>;

/**
 * The id of one event of a generation's stream, as the server sent it (`id:`): digits, or
 * digits-digits on Redis Streams. A resume sends it back as Last-Event-ID (or `?after=`). Each
 * part has at most 15 digits: within Number.MAX_SAFE_INTEGER, so ids compare exactly, and within
 * the 64-bit parts of a Redis stream id, which Redis otherwise refuses as an error.
 */
export const generationEventId = z.string().regex(/^\d{1,15}(-\d{1,15})?$/, "Not an event id of this stream");

/** GET /api/generations/{id}/events?after=ID: the events after that one (Last-Event-ID wins). */
export const generationResumeQuery = z.object({ after: generationEventId.optional() });

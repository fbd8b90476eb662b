import { z } from "zod";
import { promptTrim } from "./prompt.ts";

/**
 * Memories (chat-and-characters §2 Manage Memories, §6 memory_manager and
 * conversation_memory_auto): short facts a conversation keeps beyond its window. Pinned ones always
 * enter the prompt; the rest compete for the tier's memory budget by relevance to the latest turns.
 */

export const MEMORY_CONTENT_MAX = 250;
/** The most memories one conversation keeps (manual and automatic together). */
export const MEMORIES_PER_CONVERSATION_MAX = 500;

export const memoryContent = z
  .string()
  .trim()
  .min(1, "Write what should be remembered")
  .max(MEMORY_CONTENT_MAX, `At most ${MEMORY_CONTENT_MAX} characters`);

/** `manual`: written by the user; `auto`: written by the model from the messages it names. */
export const memorySource = z.enum(["manual", "auto"]);
export type MemorySource = z.infer<typeof memorySource>;

export const memory = z.object({
  id: z.string(),
  conversation_id: z.string(),
  content: z.string(),
  pinned: z.boolean(),
  source: memorySource,
  /** The messages an automatic memory was written from (empty for manual ones). */
  message_ids: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Memory = z.infer<typeof memory>;

/** GET /api/conversations/{id}/memories: pinned first, then newest first. */
export const memoryList = z.object({
  memories: z.array(memory),
  /** Tokens of the prompt memories may fill on this viewer's tier. */
  budget_tokens: z.number().int(),
  /** Whether the model writes memories on its own for this viewer (conversation_memory_auto). */
  automatic: z.boolean(),
  max_memories: z.number().int(),
});
export type MemoryList = z.infer<typeof memoryList>;

/** POST /api/conversations/{id}/memories */
export const memoryCreate = z.object({ content: memoryContent, pinned: z.boolean().default(false) });
export type MemoryCreate = z.input<typeof memoryCreate>;

/** PATCH /api/memories/{id}: only the changed fields. */
export const memoryUpdate = z
  .object({ content: memoryContent.optional(), pinned: z.boolean().optional() })
  .refine((v) => v.content !== undefined || v.pinned !== undefined, "Nothing to change");
export type MemoryUpdate = z.input<typeof memoryUpdate>;

/** `error_type` of memory errors, for the client's message. */
export const memoryErrorType = z.enum([
  /** 404: no such memory, or one in another user's conversation. */
  "memory_not_found",
  /** 403: the viewer's plan has no memory manager, or this edition hides it. */
  "memories_not_allowed",
  /** 403: the conversation keeps MEMORIES_PER_CONVERSATION_MAX already. */
  "memory_limit_reached",
]);
export type MemoryErrorType = z.infer<typeof memoryErrorType>;

/**
 * GET /api/messages/{id}/prompt ("why did it say that"): what the prompt that wrote this bot
 * message held, for its owner.
 */
export const promptReport = z.object({
  message_id: z.string(),
  generated_at: z.string(),
  model_id: z.string().nullable(),
  persona_name: z.string(),
  memories: z.array(z.object({ id: z.string(), content: z.string(), pinned: z.boolean() })),
  lore: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      position: z.enum(["before_char", "after_char", "at_depth"]),
      /**
       * What activated it: a key as written, "constant", or "recursion"; "hidden" for an entry of
       * a character whose creator keeps the definition private (its name is then a placeholder).
       */
      reason: z.string(),
    }),
  ),
  /** History messages the model saw (the newest included), and how many older ones were left out. */
  history_messages: z.number().int(),
  history_left_out: z.number().int(),
  prompt_tokens: z.number().int(),
  context_tokens: z.number().int(),
  trims: z.array(promptTrim),
});
export type PromptReport = z.infer<typeof promptReport>;

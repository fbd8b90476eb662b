import { z } from "zod";
import { int32, safeInt } from "./integers.ts";

/**
 * Hearth's own OpenAI-compatible API (/v1), so other tools can use its models. Only the fields
 * Hearth honours are listed; unknown fields are ignored, as OpenAI-compatible servers do.
 */
const contentPart = z.object({ type: z.literal("text"), text: z.string() });

export const openAiChatMessage = z.object({
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: z.union([z.string(), z.array(contentPart)]),
});

const stop = z.union([z.string(), z.array(z.string()).max(8)]).optional();

const samplingFields = {
  model: z.string().optional(),
  stream: z.boolean().optional(),
  max_tokens: int32(1, 32768).optional(),
  max_completion_tokens: int32(1, 32768).optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  top_k: int32(1, 1000).optional(),
  repeat_penalty: z.number().min(0.5).max(2).optional(),
  /** Handed to the model server only, never stored. */
  seed: safeInt().optional(),
  stop,
};

export const openAiChatRequest = z.object({
  ...samplingFields,
  messages: z.array(openAiChatMessage).min(1).max(10000),
});
export type OpenAiChatRequest = z.infer<typeof openAiChatRequest>;

export const openAiCompletionRequest = z.object({
  ...samplingFields,
  prompt: z.string().max(2_000_000),
});
export type OpenAiCompletionRequest = z.infer<typeof openAiCompletionRequest>;

/** Token counts of one answer; `cached_tokens` is the prompt the engine did not evaluate again. */
export const openAiUsage = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  total_tokens: z.number().int().min(0),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().min(0) }),
});
export type OpenAiUsage = z.infer<typeof openAiUsage>;

/** Why a choice ended: a stop (end of text or a stop string) or the token limit. */
export const openAiFinishReason = z.enum(["stop", "length"]);
export type OpenAiFinishReason = z.infer<typeof openAiFinishReason>;

/** GET /v1/models: the models of Hearth's registry. */
export const openAiModel = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});
export const openAiModelList = z.object({ object: z.literal("list"), data: z.array(openAiModel) });
export type OpenAiModelList = z.infer<typeof openAiModelList>;

const completionHead = {
  /** `chatcmpl-…` for chat, `cmpl-…` for text; the same on every chunk of one stream. */
  id: z.string(),
  /** Unix seconds. */
  created: z.number().int(),
  model: z.string(),
};

/** POST /v1/chat/completions without `stream`: the whole reply. */
export const openAiChatCompletion = z.object({
  ...completionHead,
  object: z.literal("chat.completion"),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal("assistant"), content: z.string() }),
      finish_reason: openAiFinishReason,
    }),
  ),
  usage: openAiUsage,
});
export type OpenAiChatCompletion = z.infer<typeof openAiChatCompletion>;

/** POST /v1/completions without `stream`: the whole continuation. */
export const openAiCompletion = z.object({
  ...completionHead,
  object: z.literal("text_completion"),
  choices: z.array(
    z.object({ index: z.number().int(), text: z.string(), finish_reason: openAiFinishReason }),
  ),
  usage: openAiUsage,
});
export type OpenAiCompletion = z.infer<typeof openAiCompletion>;

/**
 * An error after a stream has begun (the status is already 200): the stream's last event,
 * with no `[DONE]` after it. Errors before the first token are JSON answers with a status.
 */
export const openAiStreamError = z.object({
  error: z.object({ message: z.string(), type: z.literal("server_error") }),
});

/**
 * One `data:` of POST /v1/chat/completions with `stream: true`: first the role, then one chunk
 * per batch of tokens, a chunk with `finish_reason`, then one with `usage` and no choices. The
 * stream ends with `data: [DONE]` (not JSON), as OpenAI's does.
 */
export const openAiChatCompletionChunk = z.object({
  ...completionHead,
  object: z.literal("chat.completion.chunk"),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      finish_reason: openAiFinishReason.nullable(),
    }),
  ),
  usage: openAiUsage.optional(),
});
export const openAiChatStreamEvent = z.union([openAiChatCompletionChunk, openAiStreamError]);
export type OpenAiChatStreamEvent = z.infer<typeof openAiChatStreamEvent>;

/** One `data:` of POST /v1/completions with `stream: true`; the same order, ending `data: [DONE]`. */
export const openAiCompletionChunk = z.object({
  ...completionHead,
  object: z.literal("text_completion"),
  choices: z.array(
    z.object({
      index: z.number().int(),
      text: z.string(),
      finish_reason: openAiFinishReason.nullable(),
    }),
  ),
  usage: openAiUsage.optional(),
});
export const openAiCompletionStreamEvent = z.union([openAiCompletionChunk, openAiStreamError]);
export type OpenAiCompletionStreamEvent = z.infer<typeof openAiCompletionStreamEvent>;

/** Every /v1 error, before a stream or instead of an answer (OpenAI's shape, not Hearth's `{ code, message }`). */
export const openAiErrorBody = z.object({
  error: z.object({
    message: z.string(),
    type: z.enum(["invalid_request_error", "server_error"]),
    code: z.string(),
  }),
});
export type OpenAiErrorBody = z.infer<typeof openAiErrorBody>;

/** POST /v1/embeddings: one text or several (OpenAI's `input`; token arrays are not accepted). */
export const openAiEmbeddingRequest = z.object({
  model: z.string().max(200).optional(),
  input: z.union([z.string().max(32_000), z.array(z.string().max(32_000)).min(1).max(256)]),
  encoding_format: z.literal("float").optional(),
});
export type OpenAiEmbeddingRequest = z.infer<typeof openAiEmbeddingRequest>;

export const openAiEmbeddingList = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({ object: z.literal("embedding"), index: z.number().int(), embedding: z.array(z.number()) }),
  ),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});
export type OpenAiEmbeddingList = z.infer<typeof openAiEmbeddingList>;

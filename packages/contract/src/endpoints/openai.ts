import { endpoint } from "../endpoint.ts";
import {
  openAiChatCompletion,
  openAiChatRequest,
  openAiChatStreamEvent,
  openAiCompletion,
  openAiCompletionRequest,
  openAiCompletionStreamEvent,
  openAiEmbeddingList,
  openAiEmbeddingRequest,
  openAiErrorBody,
  openAiModelList,
} from "../openai.ts";

/**
 * Hearth's OpenAI-compatible API (apps/server/src/features/inference/openai-routes.ts), so other
 * tools can use its models. Off (404) unless HEARTH_API_KEY is set; then every call sends
 * `Authorization: Bearer <key>`. Unlike the rest of Hearth, errors are OpenAI's
 * `{ error: { message, type, code } }` (`openAiErrorBody`), so OpenAI clients read them.
 */
export const openAiEndpoints = {
  models: endpoint({
    method: "GET",
    path: "/v1/models",
    summary: "The models of Hearth's registry, as OpenAI lists them",
    tag: "OpenAI-compatible",
    access: "api-key",
    error: openAiErrorBody,
    response: openAiModelList,
  }),
  chatCompletions: endpoint({
    method: "POST",
    path: "/v1/chat/completions",
    summary:
      "Chat completion: the whole reply as JSON, or with `stream: true` server-sent chunks ending `data: [DONE]`",
    tag: "OpenAI-compatible",
    access: "api-key",
    error: openAiErrorBody,
    body: openAiChatRequest,
    response: openAiChatCompletion,
    events: openAiChatStreamEvent,
  }),
  completions: endpoint({
    method: "POST",
    path: "/v1/completions",
    summary:
      "Text completion of a raw prompt: JSON, or with `stream: true` server-sent chunks ending `data: [DONE]`",
    tag: "OpenAI-compatible",
    access: "api-key",
    error: openAiErrorBody,
    body: openAiCompletionRequest,
    response: openAiCompletion,
    events: openAiCompletionStreamEvent,
  }),
  embeddings: endpoint({
    method: "POST",
    path: "/v1/embeddings",
    summary:
      "Embeddings of one text or several, from the embedding model Hearth recalls memories with (404 when none is configured)",
    tag: "OpenAI-compatible",
    access: "api-key",
    error: openAiErrorBody,
    body: openAiEmbeddingRequest,
    response: openAiEmbeddingList,
  }),
};

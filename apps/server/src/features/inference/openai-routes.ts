import { randomUUID, timingSafeEqual } from "node:crypto";
import {
  type OpenAiChatCompletion,
  type OpenAiChatRequest,
  type OpenAiChatStreamEvent,
  type OpenAiCompletion,
  type OpenAiCompletionRequest,
  type OpenAiCompletionStreamEvent,
  type OpenAiErrorBody,
  type OpenAiFinishReason,
  type OpenAiUsage,
  openAiEndpoints,
} from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { EmbeddingBackend } from "../../ports/embeddings.ts";
import { type GenerationStats, LlmError, type LlmEvent, type SamplingSettings } from "../../ports/llm.ts";
import type { InferenceService } from "./service.ts";

/**
 * Hearth's OpenAI-compatible API under /v1, so other tools can use its models, declared in the
 * contract (`openAiEndpoints`). Closed unless HEARTH_API_KEY is set; errors use OpenAI's
 * `{ error: { message, type, code } }` shape, not Hearth's `{ code, message }`: this plugin's
 * own error handler answers every refusal, the contract's input checks included.
 */
export async function openAiRoutes(
  app: FastifyInstance,
  opts: { inference: InferenceService; apiKey: string | null; embeddings?: EmbeddingBackend | null },
) {
  const { inference } = opts;

  app.addHook("onRequest", async (req, reply) => {
    if (!opts.apiKey)
      return openAiError(
        reply,
        404,
        "Hearth's /v1 API is off. Set HEARTH_API_KEY to enable it.",
        "not_found",
      );
    const given = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    if (!safeEqual(given, opts.apiKey)) return openAiError(reply, 401, "Invalid API key.", "invalid_api_key");
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, req, reply) => {
    if (error instanceof LlmError) {
      const status = error.kind === "unavailable" ? 503 : error.kind === "upstream" ? 502 : 400;
      return openAiError(reply, status, error.message, error.kind);
    }
    // HttpError: the contract's input checks (400 with the field) or a broken answer (500);
    // otherwise fastify's own client errors (bad JSON, wrong content type, too large).
    const status = error instanceof HttpError ? error.status : (error.statusCode ?? 500);
    if (status >= 500) {
      req.log.error({ err: error }, "unhandled /v1 error");
      return openAiError(reply, 500, "Internal error.", "invalid_request_error");
    }
    return openAiError(reply, status, error.message, "invalid_request_error");
  });

  route(app, openAiEndpoints.models, async () => ({
    object: "list" as const,
    data: inference.registry.entries.map((e) => ({
      id: e.id,
      object: "model" as const,
      created: 0,
      owned_by: "hearth",
    })),
  }));

  route(app, openAiEndpoints.chatCompletions, async ({ req, reply, body }) => {
    const entryId = body.model ?? inference.registry.defaultId;
    const backend = await inference.backend(entryId);
    const messages = body.messages.map((m) => ({
      role: m.role === "developer" ? ("system" as const) : m.role,
      content: typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join(""),
    }));
    return respond(req, reply, entryId, "chat", body.stream ?? false, (signal) =>
      backend.chat({ messages, sampling: samplingOf(body), stop: stopsOf(body.stop), signal }),
    );
  });

  route(app, openAiEndpoints.embeddings, async ({ body }) => {
    const embedder = opts.embeddings;
    if (!embedder)
      throw new HttpError(404, "notFound", "No embedding model is configured (EMBEDDINGS_MODEL).");
    if (body.model && body.model !== embedder.model) {
      throw new HttpError(404, "notFound", `The embedding model is ${embedder.model}.`);
    }
    const input = typeof body.input === "string" ? [body.input] : body.input;
    const vectors = await embedder.embed(input);
    const tokens = input.reduce((n, text) => n + Math.ceil(text.length / 4), 0);
    return {
      object: "list" as const,
      data: vectors.map((embedding, index) => ({ object: "embedding" as const, index, embedding })),
      model: embedder.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  });

  route(app, openAiEndpoints.completions, async ({ req, reply, body }) => {
    const entryId = body.model ?? inference.registry.defaultId;
    const backend = await inference.backend(entryId);
    return respond(req, reply, entryId, "text", body.stream ?? false, (signal) =>
      backend.complete({ prompt: body.prompt, sampling: samplingOf(body), stop: stopsOf(body.stop), signal }),
    );
  });
}

type Kind = "chat" | "text";

/** What one `data:` of a /v1 stream may be: the contract's events of either endpoint. */
type StreamEvent = OpenAiChatStreamEvent | OpenAiCompletionStreamEvent;

async function respond(
  req: FastifyRequest,
  reply: FastifyReply,
  model: string,
  kind: Kind,
  stream: boolean,
  start: (signal: AbortSignal) => AsyncIterable<LlmEvent>,
): Promise<FastifyReply> {
  const id = `${kind === "chat" ? "chatcmpl" : "cmpl"}-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const controller = new AbortController();
  // A client that goes away stops the generation; nothing is computed for nobody.
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const events = start(controller.signal)[Symbol.asyncIterator]();

  if (!stream) {
    let text = "";
    let stats: GenerationStats | null = null;
    for (let e = await events.next(); !e.done; e = await events.next()) {
      if (e.value.type === "token") text += e.value.text;
      else stats = e.value.stats;
    }
    const head = { id, created, model, usage: usage(stats) };
    // These endpoints also declare `events`, so route() leaves the answer to us: shaped here by
    // the contract's response schema all the same.
    if (kind === "chat") {
      return answer(req, reply, openAiEndpoints.chatCompletions.response, {
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finish(stats) }],
      } satisfies OpenAiChatCompletion);
    }
    return answer(req, reply, openAiEndpoints.completions.response, {
      ...head,
      object: "text_completion",
      choices: [{ index: 0, text, finish_reason: finish(stats) }],
    } satisfies OpenAiCompletion);
  }

  // The first event decides the status: an error before any token still answers as JSON.
  const first = await events.next();
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const send = (data: StreamEvent) => out.write(`data: ${JSON.stringify(data)}\n\n`);
  const head = { id, created, model };
  const chunk = (text: string, finishReason: OpenAiFinishReason | null) =>
    send(
      kind === "chat"
        ? {
            ...head,
            object: "chat.completion.chunk",
            choices: [{ index: 0, delta: text ? { content: text } : {}, finish_reason: finishReason }],
          }
        : { ...head, object: "text_completion", choices: [{ index: 0, text, finish_reason: finishReason }] },
    );
  if (kind === "chat")
    send({
      ...head,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }],
    });
  try {
    for (let e = first; !e.done; e = await events.next()) {
      if (e.value.type === "token") chunk(e.value.text, null);
      else {
        chunk("", finish(e.value.stats));
        const used = usage(e.value.stats);
        send(
          kind === "chat"
            ? { ...head, object: "chat.completion.chunk", choices: [], usage: used }
            : { ...head, object: "text_completion", choices: [], usage: used },
        );
      }
    }
    out.write("data: [DONE]\n\n");
  } catch (error) {
    send({
      error: { message: error instanceof Error ? error.message : "Generation failed.", type: "server_error" },
    });
  }
  out.end();
  return reply;
}

/**
 * Sends a JSON answer shaped by the contract's schema; an answer that breaks it is a bug here,
 * logged with where it broke and answered as a plain 500 (as route() does for Hearth's own).
 */
function answer<S extends z.ZodType>(
  req: FastifyRequest,
  reply: FastifyReply,
  schema: S,
  value: z.input<S>,
): FastifyReply {
  const checked = schema.safeParse(value);
  if (!checked.success) {
    req.log.error({ route: req.url, issues: checked.error.issues }, "answer broke the contract");
    throw new HttpError(500, "internal", "Internal error.");
  }
  return reply.status(200).send(checked.data);
}

function samplingOf(body: OpenAiChatRequest | OpenAiCompletionRequest): SamplingSettings {
  return {
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? 256,
    temperature: body.temperature ?? 0.8,
    topP: body.top_p ?? 0.95,
    topK: body.top_k ?? 40,
    repeatPenalty: body.repeat_penalty,
    seed: body.seed,
  };
}

function stopsOf(stop: string | string[] | undefined): string[] {
  return stop === undefined ? [] : Array.isArray(stop) ? stop : [stop];
}

function finish(stats: GenerationStats | null): OpenAiFinishReason {
  return stats?.finishReason === "length" ? "length" : "stop";
}

function usage(stats: GenerationStats | null): OpenAiUsage {
  return {
    prompt_tokens: stats?.promptTokens ?? 0,
    completion_tokens: stats?.completionTokens ?? 0,
    total_tokens: (stats?.promptTokens ?? 0) + (stats?.completionTokens ?? 0),
    prompt_tokens_details: { cached_tokens: stats?.cachedPromptTokens ?? 0 },
  };
}

function openAiError(reply: FastifyReply, status: number, message: string, code: string) {
  const body: OpenAiErrorBody = {
    error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", code },
  };
  return reply.status(status).send(body);
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

import { randomUUID, timingSafeEqual } from "node:crypto";
import { openAiChatRequest, openAiCompletionRequest } from "@hearth/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { type GenerationStats, LlmError, type LlmEvent, type SamplingSettings } from "../../ports/llm.ts";
import type { InferenceService } from "./service.ts";

/**
 * Hearth's OpenAI-compatible API under /v1, so other tools can use its models. Closed unless
 * HEARTH_API_KEY is set; errors use OpenAI's `{ error: { message, type, code } }` shape.
 */
export async function openAiRoutes(
  app: FastifyInstance,
  opts: { inference: InferenceService; apiKey: string | null },
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

  app.setErrorHandler((error: Error & { statusCode?: number }, _req, reply) => {
    if (error instanceof LlmError) {
      const status = error.kind === "unavailable" ? 503 : error.kind === "upstream" ? 502 : 400;
      return openAiError(reply, status, error.message, error.kind);
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    return openAiError(
      reply,
      status,
      status === 500 ? "Internal error." : error.message,
      "invalid_request_error",
    );
  });

  app.get("/v1/models", async () => ({
    object: "list",
    data: inference.registry.entries.map((e) => ({
      id: e.id,
      object: "model",
      created: 0,
      owned_by: "hearth",
    })),
  }));

  app.post("/v1/chat/completions", async (req, reply) => {
    const body = parseOpenAi(openAiChatRequest, req.body, reply);
    if (!body) return reply;
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

  app.post("/v1/completions", async (req, reply) => {
    const body = parseOpenAi(openAiCompletionRequest, req.body, reply);
    if (!body) return reply;
    const entryId = body.model ?? inference.registry.defaultId;
    const backend = await inference.backend(entryId);
    return respond(req, reply, entryId, "text", body.stream ?? false, (signal) =>
      backend.complete({ prompt: body.prompt, sampling: samplingOf(body), stop: stopsOf(body.stop), signal }),
    );
  });
}

type Kind = "chat" | "text";

async function respond(
  req: FastifyRequest,
  reply: FastifyReply,
  model: string,
  kind: Kind,
  stream: boolean,
  start: (signal: AbortSignal) => AsyncIterable<LlmEvent>,
) {
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
    const choice =
      kind === "chat"
        ? { index: 0, message: { role: "assistant", content: text }, finish_reason: finish(stats) }
        : { index: 0, text, finish_reason: finish(stats) };
    return {
      id,
      object: kind === "chat" ? "chat.completion" : "text_completion",
      created,
      model,
      choices: [choice],
      usage: usage(stats),
    };
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
  const object = kind === "chat" ? "chat.completion.chunk" : "text_completion";
  const send = (data: unknown) => out.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (text: string, finishReason: string | null) =>
    send({
      id,
      object,
      created,
      model,
      choices: [
        kind === "chat"
          ? { index: 0, delta: text ? { content: text } : {}, finish_reason: finishReason }
          : { index: 0, text, finish_reason: finishReason },
      ],
    });
  if (kind === "chat")
    send({
      id,
      object,
      created,
      model,
      choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }],
    });
  try {
    for (let e = first; !e.done; e = await events.next()) {
      if (e.value.type === "token") chunk(e.value.text, null);
      else {
        chunk("", finish(e.value.stats));
        send({ id, object, created, model, choices: [], usage: usage(e.value.stats) });
      }
    }
    out.write("data: [DONE]\n\n");
  } catch (error) {
    send({
      error: { message: error instanceof Error ? error.message : "Generation failed.", type: "server_error" },
    });
  }
  out.end();
}

function samplingOf(
  body: z.infer<typeof openAiChatRequest> | z.infer<typeof openAiCompletionRequest>,
): SamplingSettings {
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

function finish(stats: GenerationStats | null): string {
  return stats?.finishReason === "length" ? "length" : "stop";
}

function usage(stats: GenerationStats | null) {
  return {
    prompt_tokens: stats?.promptTokens ?? 0,
    completion_tokens: stats?.completionTokens ?? 0,
    total_tokens: (stats?.promptTokens ?? 0) + (stats?.completionTokens ?? 0),
    prompt_tokens_details: { cached_tokens: stats?.cachedPromptTokens ?? 0 },
  };
}

function parseOpenAi<S extends z.ZodType>(
  schema: S,
  input: unknown,
  reply: FastifyReply,
): z.output<S> | null {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  openAiError(
    reply,
    400,
    issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "Invalid request",
    "invalid_request_error",
  );
  return null;
}

function openAiError(reply: FastifyReply, status: number, message: string, code: string) {
  return reply
    .status(status)
    .send({ error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", code } });
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import type {
  ChatTurn,
  CompletionRequest,
  FinishReason,
  GenerateRequest,
  GenerationStats,
  LlmBackend,
  LlmEvent,
  LlmModelInfo,
  SamplingSettings,
} from "../ports/llm.ts";
import { LlmError } from "../ports/llm.ts";

export interface OpenAiCompatibleOptions {
  /** e.g. http://vllm:8000/v1, http://localhost:11434/v1 (Ollama), https://openrouter.ai/api/v1 */
  baseUrl: string;
  apiKey?: string;
  model: string;
  contextSize: number;
  /** Attempts before the first token arrives; once a reply streams it is never retried. */
  maxRetries?: number;
  timeoutMs?: number;
}

/** Characters per token for servers without a tokenizer endpoint; a documented estimate. */
const CHARS_PER_TOKEN_ESTIMATE = 3.5;
/** Role markers and separators most chat templates add around a turn. */
const TEMPLATE_TOKENS_PER_TURN = 8;

/**
 * Any OpenAI-compatible server (vLLM, SGLang, llama.cpp server, Ollama, OpenRouter, Hearth's own
 * /v1) through the official SDK. The server applies the model's chat template and its own cache.
 */
export class OpenAiCompatibleBackend implements LlmBackend {
  private client: OpenAI;
  private tokenizeUrl: string | null;

  constructor(private opts: OpenAiCompatibleOptions) {
    this.client = new OpenAI({
      baseURL: opts.baseUrl,
      apiKey: opts.apiKey || "not-needed",
      // The SDK retries only failures before a response starts, so a reply is never duplicated.
      maxRetries: opts.maxRetries ?? 2,
      timeout: opts.timeoutMs ?? 120_000,
    });
    // llama.cpp's server and vLLM expose POST /tokenize next to /v1.
    this.tokenizeUrl = `${opts.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/tokenize`;
  }

  info(): LlmModelInfo {
    return {
      backend: "openai-compatible",
      name: this.opts.model,
      contextSize: this.opts.contextSize,
      exactTokenCount: false,
    };
  }

  async countTokens(text: string): Promise<number> {
    if (this.tokenizeUrl) {
      try {
        const res = await fetch(this.tokenizeUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
          },
          body: JSON.stringify({ content: text, prompt: text, model: this.opts.model }),
          signal: AbortSignal.timeout(5000),
        });
        if (res.ok) {
          const body = (await res.json()) as { tokens?: unknown[]; count?: number };
          if (typeof body.count === "number") return body.count;
          if (Array.isArray(body.tokens)) return body.tokens.length;
        }
        if (res.status === 404 || res.status === 405) this.tokenizeUrl = null;
      } catch {
        // Unreachable tokenizer: fall back to the estimate this once.
      }
    }
    return Math.ceil(text.length / CHARS_PER_TOKEN_ESTIMATE);
  }

  tokenCounter(): (text: string) => number {
    return (text) => Math.ceil(text.length / CHARS_PER_TOKEN_ESTIMATE);
  }

  countPromptTokens(messages: ChatTurn[]): number {
    const count = this.tokenCounter();
    // Chat templates add a few tokens per turn (role markers) and open the reply's turn.
    return messages.reduce(
      (sum, m) => sum + count(m.content) + TEMPLATE_TOKENS_PER_TURN,
      TEMPLATE_TOKENS_PER_TURN,
    );
  }

  async *chat(request: GenerateRequest): AsyncGenerator<LlmEvent> {
    const last = request.messages.at(-1);
    const continuing = last?.role === "assistant";
    const stream = this.call(request.signal, () =>
      this.client.chat.completions.create(
        {
          model: this.opts.model,
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
          stream: true,
          stream_options: { include_usage: true },
          ...this.sampling(request.sampling, request.stop),
          // vLLM/SGLang continue a trailing assistant message instead of opening a new turn.
          ...(continuing ? { continue_final_message: true, add_generation_prompt: false } : {}),
        },
        { signal: request.signal },
      ),
    );
    yield* this.relay(stream, (chunk) => chunk.choices[0]?.delta?.content ?? "", request.signal);
  }

  async *complete(request: CompletionRequest): AsyncGenerator<LlmEvent> {
    const stream = this.call(request.signal, () =>
      this.client.completions.create(
        {
          model: this.opts.model,
          prompt: request.prompt,
          stream: true,
          stream_options: { include_usage: true },
          ...this.sampling(request.sampling, request.stop),
        },
        { signal: request.signal },
      ),
    );
    yield* this.relay(stream, (chunk) => chunk.choices[0]?.text ?? "", request.signal);
  }

  private sampling(s: SamplingSettings, stop?: string[]) {
    return {
      max_tokens: s.maxTokens,
      temperature: s.temperature,
      top_p: s.topP,
      ...(s.seed !== undefined ? { seed: s.seed } : {}),
      ...(stop?.length ? { stop: stop.slice(0, 4) } : {}),
      // Not in OpenAI's schema, understood by vLLM, SGLang, llama.cpp and Ollama.
      ...({ top_k: s.topK, repeat_penalty: s.repeatPenalty } as object),
    };
  }

  private async call<T>(signal: AbortSignal | undefined, start: () => Promise<T>): Promise<T | null> {
    try {
      return await start();
    } catch (error) {
      if (signal?.aborted || error instanceof APIUserAbortError) return null;
      throw mapError(error, this.opts.baseUrl);
    }
  }

  private async *relay<
    C extends { choices: { finish_reason?: string | null }[]; usage?: OpenAI.CompletionUsage | null },
  >(
    pending: Promise<AsyncIterable<C> | null>,
    textOf: (chunk: C) => string,
    signal?: AbortSignal,
  ): AsyncGenerator<LlmEvent> {
    const stats: GenerationStats = {
      promptTokens: 0,
      cachedPromptTokens: 0,
      completionTokens: 0,
      finishReason: "stop",
    };
    const stream = await pending;
    if (!stream) {
      yield { type: "done", stats: { ...stats, finishReason: "abort" } };
      return;
    }
    let pieces = 0;
    try {
      for await (const chunk of stream) {
        const text = textOf(chunk);
        if (text) {
          pieces += 1;
          yield { type: "token", text };
        }
        const reason = chunk.choices[0]?.finish_reason;
        if (reason) stats.finishReason = toFinishReason(reason);
        if (chunk.usage) {
          stats.promptTokens = chunk.usage.prompt_tokens;
          stats.completionTokens = chunk.usage.completion_tokens;
          stats.cachedPromptTokens = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
      }
    } catch (error) {
      if (!(signal?.aborted || error instanceof APIUserAbortError)) throw mapError(error, this.opts.baseUrl);
    }
    if (signal?.aborted) stats.finishReason = "abort";
    if (!stats.completionTokens) stats.completionTokens = pieces;
    yield { type: "done", stats };
  }

  async close(): Promise<void> {}
}

function toFinishReason(reason: string): FinishReason {
  return reason === "length" ? "length" : "stop";
}

function mapError(error: unknown, baseUrl: string): LlmError {
  if (error instanceof APIConnectionError) {
    return new LlmError(`The model server at ${baseUrl} cannot be reached.`, "unavailable");
  }
  if (error instanceof APIError) {
    const detail = error.message.replace(/^\d+\s*/, "");
    if (error.status === 400 || error.status === 404 || error.status === 422) {
      return new LlmError(`The model server refused the request: ${detail}`, "bad_request");
    }
    if (error.status === 401 || error.status === 403) {
      return new LlmError("The model server refused Hearth's API key.", "unavailable");
    }
    return new LlmError(`The model server failed (${error.status ?? "no status"}): ${detail}`, "upstream");
  }
  if (error instanceof LlmError) return error;
  return new LlmError(error instanceof Error ? error.message : String(error), "upstream");
}

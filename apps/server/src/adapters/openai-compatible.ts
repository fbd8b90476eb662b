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
import { ConnectionError, HttpStatusError, postSse } from "./sse-post.ts";

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

/** One streamed chunk of /chat/completions or /completions, as far as Hearth reads it. */
interface StreamChunk {
  choices?: Array<{ delta?: { content?: string | null }; text?: string; finish_reason?: string | null }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
}

/**
 * Any OpenAI-compatible server (vLLM, SGLang, llama.cpp server, Ollama, OpenRouter, Hearth's own
 * /v1), streamed through `sse-post.ts`. The server applies the model's chat template and its own cache.
 */
export class OpenAiCompatibleBackend implements LlmBackend {
  private tokenizeUrl: string | null;
  private baseUrl: string;

  constructor(private opts: OpenAiCompatibleOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    // llama.cpp's server and vLLM expose POST /tokenize next to /v1.
    this.tokenizeUrl = `${this.baseUrl.replace(/\/v1$/, "")}/tokenize`;
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
    const body = {
      model: this.opts.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      stream: true,
      stream_options: { include_usage: true },
      ...this.sampling(request.sampling, request.stop),
      // vLLM/SGLang continue a trailing assistant message instead of opening a new turn.
      ...(continuing ? { continue_final_message: true, add_generation_prompt: false } : {}),
    };
    yield* this.relay("/chat/completions", body, (choice) => choice?.delta?.content ?? "", request.signal);
  }

  async *complete(request: CompletionRequest): AsyncGenerator<LlmEvent> {
    const body = {
      model: this.opts.model,
      prompt: request.prompt,
      stream: true,
      stream_options: { include_usage: true },
      ...this.sampling(request.sampling, request.stop),
    };
    yield* this.relay("/completions", body, (choice) => choice?.text ?? "", request.signal);
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

  private async *relay(
    path: string,
    body: object,
    textOf: (choice: NonNullable<StreamChunk["choices"]>[number] | undefined) => string,
    signal?: AbortSignal,
  ): AsyncGenerator<LlmEvent> {
    const stats: GenerationStats = {
      promptTokens: 0,
      cachedPromptTokens: 0,
      completionTokens: 0,
      finishReason: "stop",
    };
    let pieces = 0;
    try {
      const chunks = postSse({
        url: `${this.baseUrl}${path}`,
        headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
        timeoutMs: this.opts.timeoutMs ?? 120_000,
        maxRetries: this.opts.maxRetries ?? 2,
      });
      for await (const raw of chunks) {
        const chunk = raw as StreamChunk;
        const choice = chunk.choices?.[0];
        const text = textOf(choice);
        if (text) {
          pieces += 1;
          yield { type: "token", text };
        }
        if (choice?.finish_reason) stats.finishReason = toFinishReason(choice.finish_reason);
        if (chunk.usage) {
          stats.promptTokens = chunk.usage.prompt_tokens ?? 0;
          stats.completionTokens = chunk.usage.completion_tokens ?? 0;
          stats.cachedPromptTokens = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
      }
    } catch (error) {
      if (!signal?.aborted) throw mapError(error, this.opts.baseUrl);
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
  if (error instanceof ConnectionError) {
    return new LlmError(`The model server at ${baseUrl} cannot be reached.`, "unavailable");
  }
  if (error instanceof HttpStatusError) {
    const { status, detail } = error;
    if (status === 400 || status === 404 || status === 422) {
      return new LlmError(`The model server refused the request: ${detail}`, "bad_request");
    }
    if (status === 401 || status === 403) {
      return new LlmError("The model server refused Hearth's API key.", "unavailable");
    }
    return new LlmError(`The model server failed (${status}): ${detail}`, "upstream");
  }
  if (error instanceof LlmError) return error;
  // A stream cut mid-reply (the connection reset) or a malformed event.
  return new LlmError(error instanceof Error ? error.message : String(error), "upstream");
}

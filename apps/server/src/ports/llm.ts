/**
 * The inference port. The embedded llama.cpp engine and any OpenAI-compatible server sit
 * behind it; generation code never knows which one it talks to.
 */
export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface SamplingSettings {
  maxTokens: number;
  temperature: number;
  topP: number;
  topK: number;
  /** Penalty for repeating recent tokens; 1 means none. */
  repeatPenalty?: number;
  seed?: number;
}

export interface GenerateRequest {
  /**
   * The conversation to answer. When the last turn is the assistant's, the reply continues
   * that text (the "continue" action) instead of starting a new turn.
   */
  messages: ChatTurn[];
  sampling: SamplingSettings;
  /** Extra strings that end the reply; they are not part of the text. */
  stop?: string[];
  signal?: AbortSignal;
  /**
   * Work nobody waits for (automatic memory): it must never delay a reply. A backend that
   * schedules its own sequences starts it only when one is free and no reply waits, and stops it
   * (finish reason `abort`) when a reply needs its sequence.
   */
  background?: boolean;
}

export interface CompletionRequest {
  /** Raw text, no chat template applied. */
  prompt: string;
  sampling: SamplingSettings;
  stop?: string[];
  signal?: AbortSignal;
}

export type FinishReason = "stop" | "length" | "abort";

export interface GenerationStats {
  promptTokens: number;
  /** Prompt tokens that were already evaluated (reused from an earlier turn), not computed again. */
  cachedPromptTokens: number;
  completionTokens: number;
  finishReason: FinishReason;
}

export type LlmEvent = { type: "token"; text: string } | { type: "done"; stats: GenerationStats };

export interface LlmModelInfo {
  backend: "llama-cpp" | "openai-compatible";
  /** The model's own name (GGUF general.name, or the remote model id). */
  name: string;
  /** Tokens a single conversation may use (prompt + reply). */
  contextSize: number;
  /** True when the count comes from the model's tokenizer, false for an estimate. */
  exactTokenCount: boolean;
}

export interface LlmBackend {
  info(): LlmModelInfo;
  /** Streams a chat reply; the last event is always `done` (also after an abort). */
  chat(request: GenerateRequest): AsyncIterable<LlmEvent>;
  /** Streams a raw-text continuation, for the OpenAI `/v1/completions` endpoint. */
  complete(request: CompletionRequest): AsyncIterable<LlmEvent>;
  countTokens(text: string): Promise<number>;
  /** A synchronous counter for prompt budgeting: exact where the tokenizer is local, else an estimate. */
  tokenCounter(): (text: string) => number;
  /** Tokens of a whole chat as the model will see it (its template's markers included, the reply's opening too). */
  countPromptTokens(messages: ChatTurn[]): number;
  close(): Promise<void>;
}

/** Thrown for requests the backend cannot serve, with a message a person can act on. */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly kind: "context_overflow" | "unavailable" | "bad_request" | "upstream",
  ) {
    super(message);
  }
}

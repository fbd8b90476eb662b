import {
  type ChatHistoryItem,
  type ChatWrapper,
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
  LlamaText,
  readGgufFileInfo,
  resolveChatWrapper,
  type Token,
  TokenBias,
} from "node-llama-cpp";
import { StopMatcher } from "../lib/stop-matcher.ts";
import type {
  ChatTurn,
  CompletionRequest,
  FinishReason,
  GenerateRequest,
  LlmBackend,
  LlmEvent,
  LlmModelInfo,
  SamplingSettings,
} from "../ports/llm.ts";
import { LlmError } from "../ports/llm.ts";

export interface LlamaCppOptions {
  modelPath: string;
  /** Tokens per conversation (each sequence gets this much). */
  contextSize: number;
  /** Conversations generating at once; more wait for a free sequence. */
  sequences: number;
  /** CPU threads for evaluation. Always explicit: llama.cpp's own guess oversubscribes small machines. */
  threads: number;
}

/** Counters over the engine's life, for tests, benchmarks and metrics. */
export interface LlamaCppCounters {
  requests: number;
  promptTokens: number;
  cachedPromptTokens: number;
  evaluatedPromptTokens: number;
  completionTokens: number;
}

interface Slot {
  sequence: LlamaContextSequence;
  busy: boolean;
  lastUsed: number;
  /** Set while background work holds the slot: aborting it hands the slot to a reply. */
  preempt: AbortController | null;
}

/** The window a GGUF file was trained on (`<arch>.context_length`), read without loading the weights. */
export async function ggufTrainedWindow(modelPath: string): Promise<number | null> {
  try {
    const info = await readGgufFileInfo(modelPath, { readTensorInfo: false, logWarnings: false });
    const arch = info.metadata.general?.architecture;
    const window = arch
      ? (info.metadata as Record<string, { context_length?: unknown }>)[arch]?.context_length
      : null;
    return typeof window === "number" && window > 0 ? window : null;
  } catch {
    return null; // Unreadable here: the engine reports the error when it loads the file.
  }
}

/**
 * The embedded engine: llama.cpp in-process through node-llama-cpp, CPU only. One context holds
 * a pool of sequences; each request takes the free sequence whose cached tokens share the
 * longest prefix with its prompt and evaluates only the rest, so a conversation's next turn
 * costs its new tokens, not its whole history.
 */
export class LlamaCppBackend implements LlmBackend {
  private slots: Slot[] = [];
  /** Requests waiting for a free sequence: replies first, background work only when none waits. */
  private waiters: (() => void)[] = [];
  private backgroundWaiters: (() => void)[] = [];
  private clock = 0;
  private stopTokens = new Set<Token>();
  private stopStrings: string[] = [];
  readonly counters: LlamaCppCounters = {
    requests: 0,
    promptTokens: 0,
    cachedPromptTokens: 0,
    evaluatedPromptTokens: 0,
    completionTokens: 0,
  };

  private constructor(
    private llama: Llama,
    private model: LlamaModel,
    private context: LlamaContext,
    private wrapper: ChatWrapper,
  ) {}

  static async load(opts: LlamaCppOptions): Promise<LlamaCppBackend> {
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
    try {
      const model = await llama.loadModel({ modelPath: opts.modelPath });
      const context = await model.createContext({
        // A model holds no more than it was trained on: past that its replies fall apart.
        contextSize: Math.min(opts.contextSize, model.trainContextSize || opts.contextSize),
        sequences: opts.sequences,
        threads: opts.threads,
      });
      const backend = new LlamaCppBackend(llama, model, context, resolveChatWrapper(model));
      for (let i = 0; i < opts.sequences; i++) {
        backend.slots.push({ sequence: context.getSequence(), busy: false, lastUsed: 0, preempt: null });
      }
      backend.learnStopTriggers();
      return backend;
    } catch (error) {
      await llama.dispose();
      throw new LlmError(
        `Could not load the model at ${opts.modelPath}: ${error instanceof Error ? error.message : String(error)}`,
        "unavailable",
      );
    }
  }

  info(): LlmModelInfo {
    return {
      backend: "llama-cpp",
      name: this.model.fileInfo.metadata?.general?.name ?? "GGUF model",
      contextSize: this.context.contextSize,
      exactTokenCount: true,
    };
  }

  async countTokens(text: string): Promise<number> {
    return this.model.tokenize(text).length;
  }

  tokenCounter(): (text: string) => number {
    return (text) => this.model.tokenize(text).length;
  }

  countPromptTokens(messages: ChatTurn[]): number {
    return this.chatTokens(messages).length;
  }

  /** Renders the chat with the model's own template into tokens. */
  chatTokens(messages: ChatTurn[]): Token[] {
    const history: ChatHistoryItem[] = [];
    for (const m of messages) {
      if (m.role === "system") history.push({ type: "system", text: m.content });
      else if (m.role === "user") history.push({ type: "user", text: m.content });
      else history.push({ type: "model", response: [m.content] });
    }
    // A trailing assistant turn is continued; otherwise a new, empty one is opened.
    if (messages.at(-1)?.role !== "assistant") history.push({ type: "model", response: [] });
    const { contextText } = this.wrapper.generateContextState({ chatHistory: history });
    return contextText.tokenize(this.model.tokenizer);
  }

  chat(request: GenerateRequest): AsyncIterable<LlmEvent> {
    return this.run(
      this.chatTokens(request.messages),
      request.sampling,
      request.stop ?? [],
      request.signal,
      request.background ?? false,
    );
  }

  complete(request: CompletionRequest): AsyncIterable<LlmEvent> {
    const tokens = this.model.tokenize(request.prompt);
    // A raw prompt starts with BOS when the model expects one, as the chat template does.
    const bos = this.model.tokens.bos;
    if (bos !== null && this.model.tokens.shouldPrependBosToken && tokens[0] !== bos) tokens.unshift(bos);
    return this.run(tokens, request.sampling, request.stop ?? [], request.signal);
  }

  private async *run(
    prompt: Token[],
    sampling: SamplingSettings,
    stops: string[],
    signal?: AbortSignal,
    background = false,
  ): AsyncGenerator<LlmEvent> {
    if (prompt.length + 1 > this.context.contextSize) {
      throw new LlmError(
        `The prompt has ${prompt.length} tokens; this model holds ${this.context.contextSize}.`,
        "context_overflow",
      );
    }
    const slot = await this.acquire(prompt, signal, background);
    if (!slot) {
      yield {
        type: "done",
        stats: {
          promptTokens: prompt.length,
          cachedPromptTokens: 0,
          completionTokens: 0,
          finishReason: "abort",
        },
      };
      return;
    }
    try {
      const stop = slot.preempt
        ? signal
          ? AbortSignal.any([signal, slot.preempt.signal])
          : slot.preempt.signal
        : signal;
      yield* this.generate(slot.sequence, prompt, sampling, stops, stop);
    } finally {
      this.release(slot);
    }
  }

  private async *generate(
    sequence: LlamaContextSequence,
    prompt: Token[],
    sampling: SamplingSettings,
    stops: string[],
    signal?: AbortSignal,
  ): AsyncGenerator<LlmEvent> {
    // At least the last prompt token is evaluated again: its logits pick the first reply token.
    const reusable = Math.min(sequence.compareContextTokens(prompt).firstDifferentIndex, prompt.length - 1);
    await sequence.adaptStateToTokens(prompt.slice(0, reusable), false);
    const cached = sequence.nextTokenIndex;
    const fresh = prompt.slice(cached);
    this.counters.requests += 1;
    this.counters.promptTokens += prompt.length;
    this.counters.cachedPromptTokens += cached;
    this.counters.evaluatedPromptTokens += fresh.length;

    const room = this.context.contextSize - prompt.length;
    const maxTokens = Math.max(0, Math.min(sampling.maxTokens, room));
    const matcher = new StopMatcher([...this.stopStrings, ...stops]);
    const generated: Token[] = [];
    let emitted = "";
    let finishReason: FinishReason = "length";

    if (maxTokens > 0 && !signal?.aborted) {
      const opening = this.openingBias();
      const iterator = sequence.evaluate(fresh, {
        // Until the reply has said something, the template's end-of-turn marker may not be
        // sampled (an EOG token cannot be banned; the worker's retry covers that case).
        tokenBias: () => (emitted.trim() ? opening.after : opening.before),
        temperature: sampling.temperature,
        topK: sampling.topK,
        topP: sampling.topP,
        seed: sampling.seed,
        repeatPenalty:
          sampling.repeatPenalty && sampling.repeatPenalty !== 1
            ? { penalty: sampling.repeatPenalty, punishTokens: () => generated.slice(-64) }
            : undefined,
      });
      for await (const token of iterator) {
        if (signal?.aborted) {
          finishReason = "abort";
          break;
        }
        if (this.stopTokens.has(token) || this.model.isEogToken(token)) {
          finishReason = "stop";
          break;
        }
        generated.push(token);
        const text = this.model.detokenize(generated);
        // A multi-byte character split across tokens decodes to U+FFFD until its last byte arrives.
        if (text.endsWith("\uFFFD")) continue;
        const out = matcher.push(text.slice(emitted.length));
        emitted = text;
        if (out) yield { type: "token", text: out };
        if (matcher.isStopped) {
          finishReason = "stop";
          break;
        }
        if (generated.length >= maxTokens) break;
      }
      await iterator.return();
    } else if (signal?.aborted) {
      finishReason = "abort";
    }
    const tail = matcher.flush();
    if (tail) yield { type: "token", text: tail };
    this.counters.completionTokens += generated.length;
    yield {
      type: "done",
      stats: {
        promptTokens: prompt.length,
        cachedPromptTokens: cached,
        completionTokens: generated.length,
        finishReason,
      },
    };
  }

  /**
   * The free sequence sharing the longest prefix with the prompt; waits while all are busy. A
   * reply that finds none free stops a background request to take its sequence; background work
   * waits until a sequence is free and no reply is waiting.
   */
  private async acquire(
    prompt: Token[],
    signal: AbortSignal | undefined,
    background: boolean,
  ): Promise<Slot | null> {
    for (;;) {
      if (signal?.aborted) return null;
      let best: Slot | null = null;
      let bestShared = -1;
      if (!background || this.waiters.length === 0) {
        for (const slot of this.slots) {
          if (slot.busy) continue;
          const shared = slot.sequence.compareContextTokens(prompt).firstDifferentIndex;
          if (shared > bestShared || (shared === bestShared && best && slot.lastUsed < best.lastUsed)) {
            best = slot;
            bestShared = shared;
          }
        }
      }
      if (best) {
        best.busy = true;
        best.lastUsed = ++this.clock;
        best.preempt = background ? new AbortController() : null;
        return best;
      }
      if (!background) this.slots.find((s) => s.preempt && !s.preempt.signal.aborted)?.preempt?.abort();
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener("abort", wake);
          resolve();
        };
        (background ? this.backgroundWaiters : this.waiters).push(wake);
        signal?.addEventListener("abort", wake, { once: true });
      });
    }
  }

  private release(slot: Slot) {
    slot.busy = false;
    slot.preempt = null;
    (this.waiters.shift() ?? this.backgroundWaiters.shift())?.();
  }

  private openingBiases: { before: TokenBias; after: TokenBias } | null = null;

  /** Biases for a reply's start (end-of-turn markers banned) and the rest (none). */
  private openingBias(): { before: TokenBias; after: TokenBias } {
    if (!this.openingBiases) {
      const before = new TokenBias(this.model.tokenizer);
      for (const token of this.stopTokens) before.set(token, "never");
      this.openingBiases = { before, after: new TokenBias(this.model.tokenizer) };
    }
    return this.openingBiases;
  }

  /** The template's end-of-turn markers: single tokens stop by id, longer ones by text. */
  private learnStopTriggers() {
    const { stopGenerationTriggers } = this.wrapper.generateContextState({
      chatHistory: [{ type: "model", response: [] }],
    });
    for (const trigger of stopGenerationTriggers) {
      const tokens = LlamaText(trigger).tokenize(this.model.tokenizer, "trimLeadingSpace");
      if (tokens.length === 1 && tokens[0] !== undefined) this.stopTokens.add(tokens[0]);
      else {
        const text = LlamaText(trigger).toString();
        if (text) this.stopStrings.push(text);
      }
    }
  }

  /** Sequences currently generating, for health and waiting-room estimates. */
  get busySequences(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  async close(): Promise<void> {
    for (const wake of [...this.waiters.splice(0), ...this.backgroundWaiters.splice(0)]) wake();
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
}

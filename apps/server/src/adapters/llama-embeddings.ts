import {
  getLlama,
  type Llama,
  type LlamaEmbeddingContext,
  LlamaLogLevel,
  type LlamaModel,
} from "node-llama-cpp";
import { type EmbeddingBackend, unitLength } from "../ports/embeddings.ts";
import { LlmError } from "../ports/llm.ts";

export interface LlamaEmbeddingOptions {
  /** A GGUF embedding model (any GGUF loads; one trained for embeddings recalls far better). */
  modelPath: string;
  threads: number;
  /** Tokens per text; longer texts are cut (memories are at most 250 characters). */
  contextSize?: number;
}

/**
 * Embeddings from a GGUF model run in-process by node-llama-cpp, CPU only. Texts are embedded one
 * at a time on one context, in the order asked.
 */
export class LlamaEmbeddingBackend implements EmbeddingBackend {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly model: string,
    private llama: Llama,
    private llamaModel: LlamaModel,
    private context: LlamaEmbeddingContext,
    private maxTokens: number,
  ) {}

  static async load(opts: LlamaEmbeddingOptions): Promise<LlamaEmbeddingBackend> {
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
    try {
      const model = await llama.loadModel({ modelPath: opts.modelPath });
      const contextSize = Math.min(opts.contextSize ?? 512, model.trainContextSize || 512);
      const context = await model.createEmbeddingContext({ contextSize, threads: opts.threads });
      const name = model.fileInfo.metadata?.general?.name ?? opts.modelPath;
      // Room for the BOS and EOS tokens the embedding adds around the text.
      return new LlamaEmbeddingBackend(`gguf:${name}`, llama, model, context, contextSize - 2);
    } catch (error) {
      await llama.dispose();
      throw new LlmError(
        `Could not load the embedding model at ${opts.modelPath}: ${error instanceof Error ? error.message : String(error)}`,
        "unavailable",
      );
    }
  }

  embed(texts: readonly string[]): Promise<number[][]> {
    // One context evaluates one text at a time: calls wait their turn.
    const run = this.queue.then(async () => {
      const out: number[][] = [];
      for (const text of texts) {
        const tokens = this.llamaModel.tokenize(text).slice(0, this.maxTokens);
        const embedding = await this.context.getEmbeddingFor(tokens.length > 0 ? tokens : " ");
        out.push(unitLength(embedding.vector));
      }
      return out;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.context.dispose();
    await this.llamaModel.dispose();
    await this.llama.dispose();
  }
}

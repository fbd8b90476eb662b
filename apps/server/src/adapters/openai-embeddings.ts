import OpenAI from "openai";
import { type EmbeddingBackend, unitLength } from "../ports/embeddings.ts";
import { LlmError } from "../ports/llm.ts";

export interface OpenAiEmbeddingOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs?: number;
}

/** Texts one request carries (OpenAI accepts up to 2048; smaller servers fewer). */
const BATCH = 64;

/**
 * Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, vLLM, llama.cpp server,
 * Ollama, Hearth's own /v1) through the official SDK.
 */
export class OpenAiEmbeddingBackend implements EmbeddingBackend {
  readonly model: string;
  private client: OpenAI;

  constructor(opts: OpenAiEmbeddingOptions) {
    this.model = opts.model;
    this.client = new OpenAI({
      baseURL: opts.baseUrl,
      apiKey: opts.apiKey || "not-needed",
      maxRetries: 2,
      timeout: opts.timeoutMs ?? 30_000,
    });
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const input = texts.slice(i, i + BATCH);
      let data: { index: number; embedding: number[] }[];
      try {
        ({ data } = await this.client.embeddings.create({
          model: this.model,
          input,
          encoding_format: "float",
        }));
      } catch (error) {
        throw new LlmError(
          `The embedding server failed: ${error instanceof Error ? error.message : String(error)}`,
          "upstream",
        );
      }
      if (data.length !== input.length) {
        throw new LlmError(
          `The embedding server answered ${data.length} vectors for ${input.length} texts.`,
          "upstream",
        );
      }
      for (const item of [...data].sort((a, b) => a.index - b.index)) out.push(unitLength(item.embedding));
    }
    return out;
  }

  async close(): Promise<void> {}
}

/**
 * Text embeddings, for recalling memories by meaning beside keywords. The embedded engine (a GGUF
 * embedding model) and any OpenAI-compatible `/embeddings` endpoint sit behind it.
 */
export interface EmbeddingBackend {
  /** The model's name: vectors of different models are never compared. */
  readonly model: string;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
  close(): Promise<void>;
}

/** Scales a vector to unit length (cosine distance then equals what the inner product says). */
export function unitLength(vector: readonly number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm > 0 ? vector.map((x) => x / norm) : [...vector];
}

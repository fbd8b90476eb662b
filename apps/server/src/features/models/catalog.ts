import path from "node:path";
import { repoRoot } from "../../config.ts";

/**
 * Well-known small chat models Hearth can download by name: Q4_K_M GGUF quantisations on
 * Hugging Face (a good quality/size balance for CPU inference).
 */
export interface CatalogModel {
  /** Name on the command line and file name in <dataDir>/models. */
  id: string;
  displayName: string;
  url: string;
  /** Approximate download size, for display only (the server's Content-Length is what gets checked). */
  approxBytes: number;
  /**
   * Hearth's context class for the model ("8K" or "16K" models): the most tokens a conversation
   * gets on it. The models support longer contexts; the class keeps memory use sensible.
   */
  contextTokens: 8192 | 16384;
  /** Short licence name; read the model card before commercial use. */
  licence: string;
  /** Known sha256 of the file. Left out unless certain: Hugging Face's X-Linked-Etag is used then. */
  sha256?: string;
}

const hf = (repo: string, file: string) => `https://huggingface.co/${repo}/resolve/main/${file}`;

export const CATALOG: readonly CatalogModel[] = [
  {
    id: "qwen2.5-1.5b-instruct",
    displayName: "Qwen2.5 1.5B Instruct (Q4_K_M)",
    url: hf("Qwen/Qwen2.5-1.5B-Instruct-GGUF", "qwen2.5-1.5b-instruct-q4_k_m.gguf"),
    approxBytes: 1.12e9,
    contextTokens: 8192,
    licence: "Apache-2.0",
  },
  {
    id: "qwen2.5-3b-instruct",
    displayName: "Qwen2.5 3B Instruct (Q4_K_M)",
    url: hf("Qwen/Qwen2.5-3B-Instruct-GGUF", "qwen2.5-3b-instruct-q4_k_m.gguf"),
    approxBytes: 2.1e9,
    contextTokens: 16384,
    licence: "Qwen Research License (non-commercial)",
  },
  {
    id: "llama-3.2-1b-instruct",
    displayName: "Llama 3.2 1B Instruct (Q4_K_M)",
    url: hf("bartowski/Llama-3.2-1B-Instruct-GGUF", "Llama-3.2-1B-Instruct-Q4_K_M.gguf"),
    approxBytes: 0.81e9,
    contextTokens: 8192,
    licence: "Llama 3.2 Community License",
  },
  {
    id: "llama-3.2-3b-instruct",
    displayName: "Llama 3.2 3B Instruct (Q4_K_M)",
    url: hf("bartowski/Llama-3.2-3B-Instruct-GGUF", "Llama-3.2-3B-Instruct-Q4_K_M.gguf"),
    approxBytes: 2.02e9,
    contextTokens: 16384,
    licence: "Llama 3.2 Community License",
  },
  {
    id: "mistral-nemo-instruct",
    displayName: "Mistral Nemo Instruct 2407 12B (Q4_K_M)",
    url: hf("bartowski/Mistral-Nemo-Instruct-2407-GGUF", "Mistral-Nemo-Instruct-2407-Q4_K_M.gguf"),
    approxBytes: 7.48e9,
    contextTokens: 16384,
    licence: "Apache-2.0",
  },
];

/** The tiny model that ships in the repository: always available, nothing to download. */
export const BUNDLED_MODEL = {
  id: "hearth-tiny",
  displayName: "Hearth Tiny (bundled, for trying Hearth out)",
  path: path.join(repoRoot(), "models", "hearth-tiny.gguf"),
  licence: "Ships with Hearth",
} as const;

export function findCatalogModel(id: string): CatalogModel | undefined {
  const wanted = id.toLowerCase();
  return CATALOG.find((m) => m.id === wanted);
}

/** The one command that gets a real model: the catalog's first (small, permissive licence), switched to. */
export const REAL_MODEL_COMMAND = `npm run hearth -- models pull ${(CATALOG[0] as CatalogModel).id} --use`;

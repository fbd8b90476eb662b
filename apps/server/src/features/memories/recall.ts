import type { Db } from "../../db/client.ts";
import type { EmbeddingBackend } from "../../ports/embeddings.ts";
import { type MemorySite, memoryBudgetTokens } from "./policy.ts";
import { rankMemories } from "./queries.ts";
import { type SemanticQuery, semanticQuery } from "./vectors.ts";

export interface RecalledMemory {
  id: string;
  content: string;
  pinned: boolean;
}

export interface RecallRequest {
  conversationId: string;
  permissions: readonly string[];
  site: MemorySite;
  /** The latest turns, which relevance is measured against. */
  text: string;
  /** Tokens the whole prompt may use (window less the reply's reserve). */
  promptTokens: number;
  countTokens: (text: string) => number;
  /** Set where memory vectors are on (an embedding model and pgvector): meaning joins keywords. */
  embedder?: EmbeddingBackend | null;
  /** Told when embedding fails; recall then goes on with keywords alone. */
  onVectorError?: (error: unknown) => void;
}

/** Tokens each memory line costs beyond its text (the "- " and the line break). */
const LINE_OVERHEAD = 2;

/**
 * The memories for the next reply, within the tier's memory budget: pinned ones first (they
 * always enter, cut by the prompt builder only when the window is tiny), then the most relevant
 * of the rest until the budget is full.
 */
export async function recallMemories(db: Db, request: RecallRequest): Promise<RecalledMemory[]> {
  const budget = memoryBudgetTokens(request.permissions, request.site, request.promptTokens);
  if (budget <= 0) return [];
  let semantic: SemanticQuery | null = null;
  if (request.embedder) {
    try {
      semantic = await semanticQuery(db, request.embedder, request.conversationId, request.text);
    } catch (error) {
      request.onVectorError?.(error);
    }
  }
  const ranked = await rankMemories(db, request.conversationId, request.text, semantic);
  const chosen: RecalledMemory[] = [];
  let used = 0;
  for (const m of ranked) {
    const cost = request.countTokens(m.content) + LINE_OVERHEAD;
    if (!m.pinned && used + cost > budget) continue;
    used += cost;
    chosen.push({ id: m.id, content: m.content, pinned: m.pinned });
  }
  return chosen;
}

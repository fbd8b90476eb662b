import type { Db } from "../../../db/client.ts";
import type { EmbeddingBackend } from "../../../ports/embeddings.ts";
import type { CharacterRow } from "../../characters/index.ts";
import {
  type ActivatedEntry,
  type Activation,
  activateLore,
  attachedBooksForPrompt,
  type Lorebook,
  loreText,
  readLorebook,
} from "../../lorebooks/index.ts";
import { type MemorySite, type RecalledMemory, recallMemories } from "../../memories/index.ts";
import type { HistoryMessage, PromptContext } from "../prompt.ts";

/** Lore takes at most this share of what the prompt may use (the book's own budget may be lower). */
const LORE_SHARE = 0.25;
/** The newest messages whose words decide which memories are relevant. */
const RECALL_TURNS = 4;

/** An activated entry, and whether it came from the character's own book (part of its definition). */
export type GatheredEntry = ActivatedEntry & { fromCharacter: boolean };

export interface GatheredContext {
  context: PromptContext;
  memories: RecalledMemory[];
  lore: GatheredEntry[];
}

/**
 * Every book of this turn, the character's first, then the conversation's attached ones: each
 * within its own budget, all of them together within `maxTokens` (a book gets what the books
 * before it left). Entries of all books are placed by insertion order.
 */
function activateBooks(
  books: Lorebook[],
  characterBook: Lorebook | null,
  texts: string[],
  options: { countTokens: (text: string) => number; maxTokens: number },
): Activation & { entries: GatheredEntry[] } {
  const all: Activation & { entries: GatheredEntry[] } = { entries: [], tokens: 0, overBudget: [] };
  for (const book of books) {
    const one = activateLore(book, texts, {
      countTokens: options.countTokens,
      maxTokens: options.maxTokens - all.tokens,
    });
    all.entries.push(...one.entries.map((e) => ({ ...e, fromCharacter: book === characterBook })));
    all.tokens += one.tokens;
    all.overBudget.push(...one.overBudget);
  }
  // Stable: between equal orders, the character's book comes first.
  all.entries.sort((a, b) => a.insertionOrder - b.insertionOrder);
  return all;
}

/**
 * The books attached to the conversation, started before the history is read so the two round
 * trips overlap (each is first-token time); a failure is left for the caller's await.
 */
export function attachedBooks(db: Db, conversationId: string): Promise<Lorebook[]> {
  const books = attachedBooksForPrompt(db, conversationId);
  books.catch(() => {});
  return books;
}

/**
 * What the lorebooks (the character's and the conversation's attached ones) and the
 * conversation's memories add to this turn: lore entries the newest messages activate (only each
 * book's scan depth is read, so a long chat costs what a short one does), and memories recalled
 * within the tier's budget.
 */
export async function gatherPromptContext(
  db: Db,
  site: MemorySite,
  input: {
    conversationId: string;
    character: Pick<CharacterRow, "characterBook">;
    /** The conversation's attached books (`attachedBooks`), read beside the history. */
    attached: Lorebook[];
    /** Whether the conversation has memories (none: nothing to recall, and no round trip for it). */
    hasMemories: boolean;
    permissions: readonly string[];
    history: HistoryMessage[];
    /** Tokens the prompt may use (window less the reply's reserve). */
    promptTokens: number;
    countTokens: (text: string) => number;
    /** Memory vectors' embedding model, where they are on. */
    embedder?: EmbeddingBackend | null;
    onVectorError?: (error: unknown) => void;
  },
): Promise<GatheredContext> {
  const texts = input.history.map((m) => m.content);
  const characterBook = readLorebook(input.character.characterBook);
  const books = [...(characterBook ? [characterBook] : []), ...input.attached];
  const activation = activateBooks(books, characterBook, texts, {
    countTokens: input.countTokens,
    maxTokens: Math.floor(input.promptTokens * LORE_SHARE),
  });
  const memories = !input.hasMemories
    ? []
    : await recallMemories(db, {
        conversationId: input.conversationId,
        permissions: input.permissions,
        site,
        text: texts.slice(-RECALL_TURNS).join("\n"),
        promptTokens: input.promptTokens,
        countTokens: input.countTokens,
        embedder: input.embedder,
        onVectorError: input.onVectorError,
      });
  return {
    context: {
      loreBefore: loreText(activation, "before_char"),
      loreAfter: loreText(activation, "after_char"),
      loreAtDepth: activation.entries
        .filter((e) => e.position === "at_depth")
        .map((e) => ({ depth: e.depth, content: e.content })),
      memories: memories.map((m) => m.content),
    },
    memories,
    lore: activation.entries,
  };
}

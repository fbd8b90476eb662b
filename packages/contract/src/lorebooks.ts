import { z } from "zod";
import { int32 } from "./integers.ts";

/**
 * Lorebooks (world info): entries whose text enters the prompt when their keys appear in the
 * newest messages, with the card specification's semantics (Tavern V2 `character_book`, the V3
 * additions, SillyTavern's options). A character carries one in its definition; a member keeps
 * standalone books, imports and exports them, and attaches them to their conversations.
 */

export const LORE_ENTRIES_MAX = 500;
export const LORE_ENTRY_CONTENT_MAX = 8000;
export const LORE_KEYS_MAX = 50;
export const LORE_KEY_MAX = 200;
/** Books one member keeps, and books one conversation may have attached. */
export const LOREBOOKS_PER_USER_MAX = 100;
export const LOREBOOKS_PER_CONVERSATION_MAX = 5;
/** The longest text the editor's test box checks. */
export const LORE_TEST_TEXT_MAX = 20_000;
/** Largest lorebook file accepted by import (a world-info JSON or a card). */
export const LOREBOOK_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Where an entry's text goes: before or after the character's definition, or inside the history. */
export const lorePosition = z.enum(["before_char", "after_char", "at_depth"]);
export type LorePosition = z.infer<typeof lorePosition>;

/**
 * How secondary keys combine with a primary match (SillyTavern's selectiveLogic 0–3): AND ANY
 * (one of them too), NOT ALL (not every one), NOT ANY (none of them), AND ALL (every one).
 */
export const loreLogic = z.enum(["and_any", "not_all", "not_any", "and_all"]);
export type LoreLogic = z.infer<typeof loreLogic>;

const key = z.string().trim().min(1).max(LORE_KEY_MAX);

export const loreEntry = z.object({
  /** Stable within its book; the editor and the test box name entries by it. */
  id: z.string().trim().min(1).max(64),
  name: z.string().trim().max(200).default(""),
  keys: z.array(key).max(LORE_KEYS_MAX).default([]),
  secondary_keys: z.array(key).max(LORE_KEYS_MAX).default([]),
  /** Secondary keys take part only when selective. */
  selective: z.boolean().default(false),
  logic: loreLogic.default("and_any"),
  content: z
    .string()
    .trim()
    .min(1, "An entry needs text")
    .max(LORE_ENTRY_CONTENT_MAX, `At most ${LORE_ENTRY_CONTENT_MAX} characters`),
  enabled: z.boolean().default(true),
  /** Always in the prompt, keys or not. */
  constant: z.boolean().default(false),
  /** Lower comes first in the prompt. */
  insertion_order: int32(-100_000, 100_000).default(100),
  /** When the budget runs out, lower priority is dropped first. */
  priority: int32(-100_000, 100_000).default(100),
  position: lorePosition.default("after_char"),
  /** For `at_depth`: how many messages from the newest the text goes. */
  depth: int32(0, 1000).default(4),
  case_sensitive: z.boolean().default(false),
  whole_words: z.boolean().default(false),
  /** Every key is a regular expression (`/pattern/flags` or a bare pattern). */
  use_regex: z.boolean().default(false),
  /** 0–100: the chance a matched entry is used. */
  probability: int32(0, 100).default(100),
  /** This entry's own scan depth, over the book's. */
  scan_depth: int32(0, 1000).nullable().default(null),
  /** Not activated by text other entries brought in. */
  exclude_recursion: z.boolean().default(false),
  /** Its text does not activate other entries. */
  prevent_recursion: z.boolean().default(false),
});
export type LoreEntry = z.output<typeof loreEntry>;
export type LoreEntryInput = z.input<typeof loreEntry>;

/** A book's settings and entries, as the editor sends them and a character's definition holds them. */
export const lorebookBody = z
  .object({
    name: z.string().trim().max(100).default(""),
    description: z.string().trim().max(2000).default(""),
    /** How many of the newest messages are scanned for keys. */
    scan_depth: int32(0, 1000).default(4),
    /** Tokens the book's entries may take together. */
    token_budget: int32(0, 32_768).default(512),
    recursive_scanning: z.boolean().default(false),
    entries: z.array(loreEntry).max(LORE_ENTRIES_MAX, `At most ${LORE_ENTRIES_MAX} entries`).default([]),
  })
  .refine((b) => new Set(b.entries.map((e) => e.id)).size === b.entries.length, {
    message: "Two entries share an id",
    path: ["entries"],
  });
export type LorebookBody = z.output<typeof lorebookBody>;
export type LorebookBodyInput = z.input<typeof lorebookBody>;

/** A standalone book named for the list (the name is required there). */
export const lorebookCreate = lorebookBody.refine((b) => b.name.length > 0, {
  message: "A lorebook needs a name",
  path: ["name"],
});

export const lorebookSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  entry_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LorebookSummary = z.infer<typeof lorebookSummary>;

/** GET /api/lorebooks/{id}: a standalone book, whole. */
export const lorebook = lorebookSummary.extend({
  scan_depth: z.number().int(),
  token_budget: z.number().int(),
  recursive_scanning: z.boolean(),
  entries: z.array(loreEntry),
});
export type Lorebook = z.infer<typeof lorebook>;

export const lorebookList = z.object({
  lorebooks: z.array(lorebookSummary),
  max_lorebooks: z.number().int(),
});
export type LorebookList = z.infer<typeof lorebookList>;

/** POST /api/lorebooks/import: what was read from the file. */
export const lorebookImportResult = z.object({
  lorebook,
  /** The file's kind: a SillyTavern world-info file, a card's `character_book`, or a bare book. */
  format: z.enum(["worldinfo", "card", "character_book"]),
  /** Entries the file had that could not be used (no text), left out. */
  skipped_entries: z.number().int(),
});
export type LorebookImportResult = z.infer<typeof lorebookImportResult>;

/** GET /api/lorebooks/{id}/export?format=: SillyTavern world info, or a `character_book` (the card format). */
export const lorebookExportQuery = z.object({
  format: z.enum(["worldinfo", "character_book"]).default("worldinfo"),
});

/** POST /api/lorebooks/test: which entries of this book would this text activate? */
export const loreTestRequest = z.object({
  book: lorebookBody,
  /** The message(s) to scan, newest last; one message per line block is enough for the editor. */
  text: z.string().max(LORE_TEST_TEXT_MAX, `At most ${LORE_TEST_TEXT_MAX} characters`),
});

/** Why an entry is in the prompt. */
export const loreActivationReason = z.enum(["constant", "key", "recursion"]);

export const loreTestResult = z.object({
  activated: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      position: lorePosition,
      reason: loreActivationReason,
      /** The key that matched (null for constant entries). */
      matched_key: z.string().nullable(),
      tokens: z.number().int(),
      /**
       * The entry's chance (0–100). The test box does not roll it: an entry that matches is shown
       * as activated whatever its chance (except 0, never used), with the chance beside it.
       */
      probability: z.number().int(),
    }),
  ),
  /** Entries that matched but did not fit the book's token budget. */
  over_budget: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Keys that are not valid regular expressions (they never match). */
  invalid_keys: z.array(z.object({ id: z.string(), key: z.string() })),
  tokens: z.number().int(),
});
export type LoreTestResult = z.infer<typeof loreTestResult>;

/** GET/PUT /api/conversations/{id}/lorebooks: the owner's books applied to this chat. */
export const conversationLorebooks = z.object({
  lorebooks: z.array(lorebookSummary),
  max_lorebooks: z.number().int(),
});
export type ConversationLorebooks = z.infer<typeof conversationLorebooks>;

export const conversationLorebooksUpdate = z.object({
  lorebook_ids: z
    .array(z.uuid())
    .max(LOREBOOKS_PER_CONVERSATION_MAX, `At most ${LOREBOOKS_PER_CONVERSATION_MAX} lorebooks per chat`),
});

/** `error_type` of the lorebooks endpoints' refusals, finer than their `code`. */
export const lorebookErrorType = z.enum([
  /** 403: guests keep no lorebooks (signing up keeps them). */
  "lorebooks_not_allowed",
  /** 404: no such lorebook or conversation, or another member's. */
  "lorebook_not_found",
  /** 409: the member keeps LOREBOOKS_PER_USER_MAX already. */
  "lorebook_limit_reached",
  /** 400: an imported file holds no lorebook entry that can be used. */
  "lorebook_file_unusable",
]);
export type LorebookErrorType = z.infer<typeof lorebookErrorType>;

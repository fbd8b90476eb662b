import { z } from "zod";
import { llmMode } from "./accounts.ts";
import { nonNegativeInt32 } from "./integers.ts";

/**
 * Whole-account export and import (issue 19 item 4): everything a member owns (the characters
 * they made, as CharX cards, their conversations as Hearth chat JSON, their personas, their own
 * lorebooks and their settings) in one zip archive, which another Hearth imports.
 */

/** The largest archive an import accepts. */
export const ACCOUNT_IMPORT_MAX_BYTES = 200 * 1024 * 1024;
/** The most files one archive may hold. */
export const ACCOUNT_ARCHIVE_ENTRIES_MAX = 20_000;
/** The identifier in the archive's manifest.json. */
export const HEARTH_ACCOUNT_FORMAT = "hearth-account";

const isoDate = z.string().max(64);

/** manifest.json at the archive's root. */
export const accountManifest = z.object({
  format: z.literal(HEARTH_ACCOUNT_FORMAT),
  version: z.literal(1),
  hearth_version: z.string().max(100),
  exported_at: isoDate,
  counts: z.object({
    characters: nonNegativeInt32(),
    conversations: nonNegativeInt32(),
    personas: nonNegativeInt32(),
    lorebooks: nonNegativeInt32().default(0),
  }),
  /** Each character's card file (under characters/) and its id in the Hearth it came from. */
  characters: z
    .array(z.object({ id: z.string().max(100), file: z.string().max(300), name: z.string().max(500) }))
    .max(ACCOUNT_ARCHIVE_ENTRIES_MAX),
  /** Each conversation's file (under conversations/), and the card file of its character. */
  conversations: z
    .array(
      z.object({
        id: z.string().max(100),
        file: z.string().max(300),
        character_id: z.string().max(100),
        character_file: z.string().max(300).nullable(),
        persona_id: z.string().max(100).nullable(),
      }),
    )
    .max(ACCOUNT_ARCHIVE_ENTRIES_MAX),
});
export type AccountManifest = z.infer<typeof accountManifest>;

/** One file of personas/. */
export const exportedPersona = z.object({
  id: z.string().max(100),
  name: z.string().max(500),
  highlights: z.string().max(5000).default(""),
  is_default: z.boolean().default(false),
  /** The avatar's file in personas/ (a WebP), or null. */
  avatar_file: z.string().max(300).nullable().default(null),
  created_at: isoDate.optional(),
});
export type ExportedPersona = z.infer<typeof exportedPersona>;

/** settings.json: the member's preferences; never a key, password or session. */
export const exportedSettings = z.object({
  highlights: z.string().max(5000).default(""),
  show_nsfw: z.boolean().default(false),
  openai_mode: llmMode.default("disabled"),
  default_model_id: z.string().max(200).nullable().default(null),
});
export type ExportedSettings = z.infer<typeof exportedSettings>;

/** One thing an import left out, and why. */
export const accountImportSkip = z.object({
  /** The archive's file (or setting) left out. */
  item: z.string(),
  reason: z.string(),
});

/** What POST /api/account/import did. */
export const accountImportReport = z.object({
  characters: z.number().int(),
  conversations: z.number().int(),
  personas: z.number().int(),
  /** The member's own lorebooks (lorebooks/), re-attached to the imported conversations. */
  lorebooks: z.number().int(),
  /** Settings applied (their names). */
  settings: z.array(z.string()),
  /** Messages and memories of the imported conversations. */
  messages: z.number().int(),
  memories: z.number().int(),
  /** Characters, conversations and lorebooks an earlier import of this same archive brought in. */
  already_imported: z.number().int(),
  skipped: z.array(accountImportSkip),
  /** How a second import of the same archive behaves (only what is missing is added). */
  note: z.string(),
});
export type AccountImportReport = z.infer<typeof accountImportReport>;

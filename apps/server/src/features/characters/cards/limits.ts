import { characterFields, MAX_TAGS } from "@hearth/contract";
import { CardError } from "./types.ts";

/**
 * Size limits for card files. They are generous for real cards (long lorebooks, a large
 * portrait) and small enough that a hostile file cannot exhaust memory or time.
 */

/** Whole uploaded file (PNG, JSON or CharX). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Decoded card JSON (from a PNG chunk, a JSON file or card.json); lorebooks make it large. */
export const MAX_CARD_JSON_BYTES = 8 * 1024 * 1024;
export const cardTooLarge = () =>
  new CardError(
    `The card data is larger than ${MAX_CARD_JSON_BYTES / 2 ** 20} MB, which Hearth does not accept.`,
    413,
  );
/** Nesting of the card JSON; real cards stay under 10, this keeps recursive walks safe. */
export const MAX_JSON_DEPTH = 64;
/** CharX: everything the archive declares it unpacks to, and its number of entries. */
export const MAX_ZIP_TOTAL_BYTES = 50 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 1000;
/** One image (the avatar asset of a CharX). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export { MAX_TAGS };
/** The contract's `alternate_greetings` array limit (checked against the schema in the tests). */
export const MAX_ALTERNATE_GREETINGS = 50;

type TextField =
  | "name"
  | "title"
  | "greeting"
  | "persona"
  | "personality"
  | "scenario"
  | "dialogue"
  | "system_prompt"
  | "post_history_instructions"
  | "creator_notes";

const shape = characterFields.shape;

/** Maximum length (UTF-16 code units, as zod counts) of each text field, read from the contract. */
export const FIELD_MAX: Record<TextField, number> = {
  name: shape.name.maxLength ?? 100,
  title: shape.title.unwrap().maxLength ?? 200,
  greeting: shape.greeting.unwrap().maxLength ?? 20_000,
  persona: shape.persona.unwrap().maxLength ?? 50_000,
  personality: shape.personality.unwrap().maxLength ?? 20_000,
  scenario: shape.scenario.unwrap().maxLength ?? 20_000,
  dialogue: shape.dialogue.unwrap().maxLength ?? 50_000,
  system_prompt: shape.system_prompt.unwrap().maxLength ?? 20_000,
  post_history_instructions: shape.post_history_instructions.unwrap().maxLength ?? 20_000,
  creator_notes: shape.creator_notes.unwrap().maxLength ?? 20_000,
};
export const MAX_ALTERNATE_GREETING_LENGTH = shape.alternate_greetings.unwrap().element.maxLength ?? 20_000;
export const MAX_TAG_LENGTH = shape.tags.unwrap().element.maxLength ?? 32;
/** Same rule as the contract's tag schema. */
export const TAG_PATTERN = /^[\p{L}\p{N} _&'+-]+$/u;

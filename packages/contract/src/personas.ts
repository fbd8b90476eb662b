import { z } from "zod";
import { hasVisibleCharacter, NAME_INVISIBLE } from "./accounts.ts";

/**
 * Personas: the user's own identity in a chat (chat-and-characters §2 Personas pages, §3, §4
 * "Persona default", §5). One persona per user is the default; names are unique per user,
 * ignoring case, so the persona picker never shows two that look the same.
 */

export const PERSONA_NAME_MAX = 30;
export const PERSONA_HIGHLIGHTS_MAX = 1000;

/** One line of visible text: no line breaks or other control characters (it becomes `{{user}}` in prompts). */
export const personaName = z
  .string()
  .trim()
  .min(1, "A name is required")
  .max(PERSONA_NAME_MAX, `At most ${PERSONA_NAME_MAX} characters`)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u, "A name is one line of text")
  .refine(hasVisibleCharacter, NAME_INVISIBLE);

export const personaHighlights = z
  .string()
  .trim()
  .max(PERSONA_HIGHLIGHTS_MAX, `At most ${PERSONA_HIGHLIGHTS_MAX} characters`);

/** POST /api/personas. The user's first persona becomes the default. */
export const personaCreate = z.object({
  name: personaName,
  highlights: personaHighlights.default(""),
});
export type PersonaCreate = z.input<typeof personaCreate>;

/** PATCH /api/personas/{id}: only the changed fields. */
export const personaUpdate = z
  .object({ name: personaName.optional(), highlights: personaHighlights.optional() })
  .refine((v) => v.name !== undefined || v.highlights !== undefined, "Nothing to change");
export type PersonaUpdate = z.input<typeof personaUpdate>;

/** GET /api/personas?q=: `q` is a case-insensitive prefix of the name. */
export const personaListQuery = z.object({
  q: z.string().trim().max(100).optional(),
});

export const persona = z.object({
  id: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  /** A short description of who the user plays; may be empty. */
  highlights: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Persona = z.infer<typeof persona>;

/** GET /api/personas: the default first, then by name. */
export const personaList = z.object({ personas: z.array(persona) });
export type PersonaList = z.infer<typeof personaList>;

/**
 * `error_type` of persona errors (spec §8: "Persona errors show a message chosen by
 * error_type"). The `code` stays the generic one (notFound, conflict, limitReached, forbidden).
 */
export const personaErrorType = z.enum([
  /** 404: no such persona among the user's own (another user's persona is never revealed). */
  "persona_not_found",
  /** 409: the user already has a persona with this name (ignoring case). */
  "persona_name_taken",
  /** 409: the default persona cannot be deleted. */
  "default_persona_delete",
  /** 403: the user's plan allows no more personas. */
  "persona_limit_reached",
  /** 403: guests and limited accounts have no personas. */
  "personas_not_allowed",
]);
export type PersonaErrorType = z.infer<typeof personaErrorType>;

/** The exact refusal text for deleting the default persona (spec §5). */
export const DEFAULT_PERSONA_DELETE_MESSAGE =
  "You cannot delete the default persona, please set another persona as the default or create a new one first.";

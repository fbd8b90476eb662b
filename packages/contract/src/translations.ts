import { z } from "zod";
import { characterLimits as limits } from "./labels.ts";

/**
 * A creator's translations of a bot's text fields (issue 17 item 5; chat-and-characters §7
 * "GET characters/{id}, optional language query"): `GET /api/characters/{id}?language=es` serves
 * the Spanish translation over the original where the creator made one; a field left null keeps
 * the original's text.
 */

/** A BCP 47 language tag, lowercased: `es`, `pt-br`, `zh-hant`. */
export const translationLanguage = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, "Use a language code such as es or pt-br.");

export const translationParams = z.object({
  id: z.uuid({ error: "Not a valid id" }),
  language: translationLanguage,
});

const text = (max: number) => z.string().trim().max(max).nullable().default(null);

export const characterTranslationBody = z.object({
  name: z.string().trim().min(1).max(limits.name).nullable().default(null),
  title: text(limits.title),
  greeting: text(limits.greeting),
  persona: text(limits.persona),
  scenario: text(limits.scenario),
  dialogue: text(limits.dialogue),
});
export type CharacterTranslationBody = z.input<typeof characterTranslationBody>;

export const characterTranslation = z.object({
  language: z.string(),
  name: z.string().nullable(),
  title: z.string().nullable(),
  greeting: z.string().nullable(),
  persona: z.string().nullable(),
  scenario: z.string().nullable(),
  dialogue: z.string().nullable(),
  updated_at: z.string(),
});
export type CharacterTranslation = z.infer<typeof characterTranslation>;

export const characterTranslationList = z.object({ translations: z.array(characterTranslation) });

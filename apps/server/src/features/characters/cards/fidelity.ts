import { isRecord } from "./card-json.ts";
import { cardToHearth } from "./card-to-hearth.ts";
import { HEARTH_EXTENSION, KEPT_FIELDS_EXTENSION } from "./extensions.ts";
import { sameJson } from "./source.ts";
import type { ExportableCharacter } from "./types.ts";

/**
 * Lossless export of an imported card: every card value whose Hearth field still reads as it did
 * on import is written back exactly as the card had it (tags Hearth could not keep, blank
 * alternate greetings, text past Hearth's limits, creator_notes that came from
 * creator_notes_multilingual, the card's key order...). A field the creator changed in Hearth is
 * written from Hearth. The comparison re-reads the stored card with the same reader as the import.
 */

type Fields = ExportableCharacter["fields"];

/** Card data key → the Hearth field it is read into. */
const FIELD_OF: Array<[string, keyof Fields]> = [
  ["name", "name"],
  ["description", "persona"],
  ["personality", "personality"],
  ["scenario", "scenario"],
  ["first_mes", "greeting"],
  ["mes_example", "dialogue"],
  ["creator_notes", "creator_notes"],
  ["system_prompt", "system_prompt"],
  ["post_history_instructions", "post_history_instructions"],
  ["alternate_greetings", "alternate_greetings"],
  ["tags", "tags"],
];

/** Hearth's own profile fields, carried in `extensions.hearth`, with their defaults. */
const HEARTH_FIELDS: Array<[keyof Fields, unknown]> = [
  ["title", ""],
  ["language", "en"],
  ["is_nsfw", false],
  ["avatar_is_nsfw", false],
];

const withoutHearthKeys = (extensions: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(extensions).filter(([k]) => k !== HEARTH_EXTENSION && k !== KEPT_FIELDS_EXTENSION),
  );

export function withOriginalValues(
  derived: Record<string, unknown>,
  character: ExportableCharacter,
  options: { artUnchanged: boolean; v3: boolean },
): Record<string, unknown> {
  const source = character.source;
  if (!source) return derived;
  let imported: ReturnType<typeof cardToHearth>;
  try {
    imported = cardToHearth(
      { version: source.version, data: source.data, ignoredTopLevel: [], warnings: [] },
      "json_v3",
    );
  } catch {
    return derived;
  }
  const original = source.data;
  const out: Record<string, unknown> = { ...derived };
  let changed = false;
  const restore = (key: string) => {
    if (key in original && key in derived) out[key] = original[key];
  };

  for (const [key, field] of FIELD_OF) {
    const then = imported.fields[field] ?? (field === "tags" || field === "alternate_greetings" ? [] : "");
    if (sameJson(character.fields[field], then)) restore(key);
    else changed = true;
  }

  const hearthThen: Record<string, unknown> = imported.fields;
  const hearthSame = HEARTH_FIELDS.every(([field, fallback]) =>
    sameJson(character.fields[field], hearthThen[field] ?? fallback),
  );
  const extensionsSame = sameJson(
    withoutHearthKeys(character.extensions),
    withoutHearthKeys(imported.extensions),
  );
  if (hearthSame && extensionsSame) {
    if (isRecord(original.extensions)) restore("extensions");
  } else changed = true;

  if (
    sameJson(
      character.characterBook ?? null,
      isRecord(original.character_book) ? original.character_book : null,
    )
  ) {
    restore("character_book");
  } else changed = true;

  if (options.v3) {
    if (!changed) restore("modification_date");
    if (options.artUnchanged && Array.isArray(original.assets)) restore("assets");
  }

  // The card's own key order, then whatever Hearth adds.
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(original)) if (key in out) ordered[key] = out[key];
  for (const [key, value] of Object.entries(out)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

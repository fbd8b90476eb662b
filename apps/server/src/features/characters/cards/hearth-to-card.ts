import { isRecord } from "./card-json.ts";
import { HEARTH_EXTENSION, KEPT_FIELDS_EXTENSION } from "./extensions.ts";
import { withOriginalValues } from "./fidelity.ts";
import type { ExportableCharacter } from "./types.ts";

/** Builds the Tavern card objects (V3, and V2 for older tools) from a Hearth character. */

export interface CardAsset {
  type: string;
  uri: string;
  name: string;
  ext: string;
}

/** V3's default when a card has no assets list: the PNG the card is embedded in. */
export const DEFAULT_ICON: CardAsset = { type: "icon", uri: "ccdefault:", name: "main", ext: "png" };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The card's own fields that Hearth kept aside on import (see extensions.ts). */
function keptFields(character: ExportableCharacter): Record<string, unknown> {
  const kept = character.extensions[KEPT_FIELDS_EXTENSION];
  return isRecord(kept) ? kept : {};
}

/** The V2 `data` object: every V2 field, so V2-only readers get the whole character. */
export function v2CardData(character: ExportableCharacter): Record<string, unknown> {
  const { fields } = character;
  const kept = keptFields(character);
  const extensions = Object.fromEntries(
    Object.entries(character.extensions).filter(
      ([k]) => k !== KEPT_FIELDS_EXTENSION && k !== HEARTH_EXTENSION,
    ),
  );
  // Hearth's own profile fields, only when they say something (a card from elsewhere gains nothing).
  const hearth = hearthExtension(character);
  if (hearth) extensions[HEARTH_EXTENSION] = hearth;
  return {
    name: fields.name,
    description: fields.persona,
    personality: fields.personality,
    scenario: fields.scenario,
    first_mes: fields.greeting,
    mes_example: fields.dialogue,
    creator_notes: fields.creator_notes,
    system_prompt: fields.system_prompt,
    post_history_instructions: fields.post_history_instructions,
    alternate_greetings: fields.alternate_greetings,
    tags: fields.tags,
    // The original author stays credited when the card came from elsewhere.
    creator: typeof kept.creator === "string" ? kept.creator : (character.creatorUsername ?? ""),
    character_version: typeof kept.character_version === "string" ? kept.character_version : "",
    extensions,
    ...(character.characterBook != null ? { character_book: character.characterBook } : {}),
  };
}

/** Title, language and NSFW flags under `extensions.hearth`, or null when all are Hearth's defaults. */
export function hearthExtension(character: ExportableCharacter): Record<string, unknown> | null {
  const { title, language, is_nsfw, avatar_is_nsfw } = character.fields;
  if (title === "" && language === "en" && !is_nsfw && !avatar_is_nsfw) return null;
  return { title, language, is_nsfw, avatar_is_nsfw };
}

export function v2Card(character: ExportableCharacter, artUnchanged = false) {
  // A V2 card's own unknown data keys come back too (the V3 ones only in a V3 card).
  const own = character.source?.version === 2 ? character.source.data : {};
  const kept = Object.fromEntries(Object.entries(keptFields(character)).filter(([k]) => k in own));
  const data = withOriginalValues({ ...kept, ...v2CardData(character) }, character, {
    artUnchanged,
    v3: false,
  });
  return { spec: "chara_card_v2", spec_version: "2.0", data };
}

/** V2's additions to V1, with the value that says "none"; creator and version are credits, not content. */
const V2_ADDITIONS: Array<[string, unknown]> = [
  ["creator_notes", ""],
  ["system_prompt", ""],
  ["post_history_instructions", ""],
  ["alternate_greetings", []],
  ["tags", []],
  ["extensions", {}],
];

/**
 * The V1 card (six flat fields, in the imported card's order) from the V2 card's `data`, or null
 * when the character now holds something V1 cannot (tags, a lorebook, Hearth's title...): it is
 * then written as V2.
 */
function v1Card(
  character: ExportableCharacter,
  data: Record<string, unknown>,
): Record<string, unknown> | null {
  if (data.character_book !== undefined) return null;
  if (!V2_ADDITIONS.every(([key, none]) => JSON.stringify(data[key] ?? none) === JSON.stringify(none)))
    return null;
  const own = character.source?.data ?? {};
  // The card's fields in its order; a field it left out only when Hearth now has text for it.
  const keys = [...new Set([...Object.keys(own), ...V1_FIELDS])].filter(
    (k) => V1_FIELDS.includes(k) && (k in own || data[k] !== ""),
  );
  return Object.fromEntries(keys.map((k) => [k, data[k]]));
}

const V1_FIELDS = ["name", "description", "personality", "scenario", "first_mes", "mes_example"];

/**
 * The JSON card in the version it was imported as, so import then export gives the same file:
 * V1 while V1 can still hold the character (else V2), V2, or V3 (also for bots made in Hearth).
 */
export function jsonCard(character: ExportableCharacter, artUnchanged: boolean): Record<string, unknown> {
  const version = character.source?.version;
  if (version === 1) {
    const v2 = v2Card(character, artUnchanged);
    return v1Card(character, v2.data) ?? v2;
  }
  if (version === 2) return v2Card(character, artUnchanged);
  return v3Card(character, [DEFAULT_ICON], artUnchanged);
}

/**
 * The V3 card. `assets` are what Hearth writes for its picture; `artUnchanged` says the picture is
 * still the imported card's, so the card's own assets list is written back instead.
 */
export function v3Card(character: ExportableCharacter, assets: CardAsset[], artUnchanged = false) {
  const kept = keptFields(character);
  const data = {
    // Kept fields first, so Hearth's own values win on any clash.
    ...kept,
    ...v2CardData(character),
    group_only_greetings: Array.isArray(kept.group_only_greetings) ? kept.group_only_greetings : [],
    creation_date: typeof kept.creation_date === "number" ? kept.creation_date : seconds(character.createdAt),
    modification_date: seconds(character.updatedAt),
    assets,
  };
  return {
    spec: "chara_card_v3",
    spec_version: "3.0",
    data: withOriginalValues(data, character, { artUnchanged, v3: true }),
  };
}

import { isRecord } from "./card-json.ts";
import { HEARTH_EXTENSION, KEPT_FIELDS_EXTENSION } from "./extensions.ts";
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
  extensions[HEARTH_EXTENSION] = {
    title: fields.title,
    language: fields.language,
    is_nsfw: fields.is_nsfw,
    avatar_is_nsfw: fields.avatar_is_nsfw,
  };
  return {
    name: fields.name,
    // Hearth's persona already holds any imported personality ("Personality: ..."), so the
    // card's personality stays empty rather than repeating it.
    description: fields.persona,
    personality: "",
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

export function v2Card(character: ExportableCharacter) {
  return { spec: "chara_card_v2", spec_version: "2.0", data: v2CardData(character) };
}

export function v3Card(character: ExportableCharacter, assets: CardAsset[]) {
  const kept = keptFields(character);
  return {
    spec: "chara_card_v3",
    spec_version: "3.0",
    data: {
      // Kept fields first, so Hearth's own values win on any clash.
      ...kept,
      ...v2CardData(character),
      group_only_greetings: Array.isArray(kept.group_only_greetings) ? kept.group_only_greetings : [],
      creation_date:
        typeof kept.creation_date === "number" ? kept.creation_date : seconds(character.createdAt),
      modification_date: seconds(character.updatedAt),
      assets,
    },
  };
}

import type { CharacterCreate, ImportReport } from "@hearth/contract";
import { isRecord, type RawCard } from "./card-json.ts";
import { HEARTH_EXTENSION, KEPT_FIELDS_EXTENSION, listNames } from "./extensions.ts";
import {
  FIELD_MAX,
  MAX_ALTERNATE_GREETING_LENGTH,
  MAX_ALTERNATE_GREETINGS,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  TAG_PATTERN,
} from "./limits.ts";
import { CardError, type ParsedCard } from "./types.ts";

/** Maps a Tavern card's data to Hearth's fields, noting everything taken, left or changed. */

/** Card data keys read into Hearth fields (or rebuilt on export); every other key is kept aside. */
const MAPPED_KEYS = new Set([
  "name",
  "description",
  "personality",
  "scenario",
  "first_mes",
  "mes_example",
  "alternate_greetings",
  "tags",
  "creator_notes",
  "system_prompt",
  "post_history_instructions",
  "character_book",
  "extensions",
  // Rebuilt on export: assets from the avatar, modification_date from the last update.
  "assets",
  "modification_date",
]);

/** The fields of the V1 specification (anything else at a V1 card's top level is application state). */
const V1_KEYS = new Set(["name", "description", "personality", "scenario", "first_mes", "mes_example"]);

/** Cut to `max` UTF-16 units (zod's measure) without splitting a surrogate pair. */
function clip(value: string, max: number, label: string, warnings: string[]): string {
  if (value.length <= max) return value;
  let cut = value.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  warnings.push(`${label} had ${value.length} characters; only the first ${max} were kept.`);
  return cut;
}

export function normaliseTags(value: unknown): { tags: string[]; invalid: string[]; overLimit: string[] } {
  const list: unknown[] = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : [];
  const seen = new Set<string>();
  const tags: string[] = [];
  const invalid: string[] = [];
  const overLimit: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") {
      invalid.push(`(${item === null ? "null" : typeof item})`);
      continue;
    }
    // Kept as written ("White Hair"); a second spelling of the same tag is a duplicate.
    const tag = item.trim().replace(/\s+/g, " ");
    if (tag === "" || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    if (tag.length > MAX_TAG_LENGTH || !TAG_PATTERN.test(tag)) invalid.push(tag);
    else if (tags.length >= MAX_TAGS) overLimit.push(tag);
    else tags.push(tag);
  }
  return { tags, invalid, overLimit };
}

export function cardToHearth(
  raw: RawCard,
  format: ImportReport["format"],
): Omit<ParsedCard, "avatar" | "art" | "archive"> & { report: ImportReport } {
  const d = raw.data;
  const report: ImportReport = { format, imported: [], ignored: [], warnings: [...raw.warnings] };
  const { imported, ignored, warnings } = report;

  const text = (key: string): string => {
    const value = d[key];
    if (value === undefined || value === null) return "";
    if (typeof value === "string") return value;
    warnings.push(`The card's ${key} is not text and was ignored.`);
    return "";
  };
  const field = (hearth: keyof typeof FIELD_MAX, tavernKey: string, value = text(tavernKey)): string => {
    if (value !== "") imported.push(hearth === tavernKey ? hearth : `${hearth} (from ${tavernKey})`);
    return clip(value, FIELD_MAX[hearth], hearth, warnings);
  };

  const name = text("name").trim();
  if (name === "") throw new CardError("The card has no name.");

  let creatorNotes = text("creator_notes");
  const multilingual = d.creator_notes_multilingual;
  if (creatorNotes === "" && isRecord(multilingual) && typeof multilingual.en === "string") {
    creatorNotes = multilingual.en;
  }

  const cardExtensions = isRecord(d.extensions) ? d.extensions : {};
  if (d.extensions !== undefined && d.extensions !== null && !isRecord(d.extensions)) {
    warnings.push("The card's extensions are not an object and were ignored.");
  }
  // Written by Hearth's own export: profile fields Tavern cards have no place for.
  const hearth = isRecord(cardExtensions[HEARTH_EXTENSION]) ? cardExtensions[HEARTH_EXTENSION] : {};

  const fields: CharacterCreate = {
    name: clip(name, FIELD_MAX.name, "name", warnings),
    greeting: field("greeting", "first_mes"),
    persona: field("persona", "description"),
    personality: field("personality", "personality"),
    scenario: field("scenario", "scenario"),
    dialogue: field("dialogue", "mes_example"),
    system_prompt: field("system_prompt", "system_prompt"),
    post_history_instructions: field("post_history_instructions", "post_history_instructions"),
    creator_notes: field("creator_notes", "creator_notes", creatorNotes),
    alternate_greetings: alternateGreetings(d.alternate_greetings, report),
    tags: tags(d.tags, report),
    visibility: "private",
    definition_visible: false,
  };
  imported.unshift("name");
  // Hearth's tagline is the creator's own (written by Hearth's export); never made up from the notes.
  fields.title =
    typeof hearth.title === "string" ? field("title", "extensions.hearth.title", hearth.title) : "";
  if (typeof hearth.language === "string" && /^[\p{L}-]{2,16}$/u.test(hearth.language)) {
    fields.language = hearth.language;
  }
  if (hearth.is_nsfw === true) fields.is_nsfw = true;
  if (hearth.avatar_is_nsfw === true) fields.avatar_is_nsfw = true;

  let characterBook: unknown | null = null;
  if (isRecord(d.character_book)) {
    characterBook = d.character_book;
    const entries = d.character_book.entries;
    imported.push(`character_book (${Array.isArray(entries) ? entries.length : 0} entries)`);
  } else if (d.character_book !== undefined && d.character_book !== null) {
    warnings.push("The card's character_book is not an object and was ignored.");
  }

  const extensions = Object.fromEntries(
    Object.entries(cardExtensions).filter(([k]) => k !== HEARTH_EXTENSION),
  );
  if (Object.keys(extensions).length > 0) imported.push(`extensions (${listNames(Object.keys(extensions))})`);

  // V2/V3 fields Hearth has no column for are kept verbatim so an export writes them back.
  // V1 has no such fields: anything else at its top level is application state (chat, fav...).
  const unmapped = Object.entries(d).filter(([k]) => !MAPPED_KEYS.has(k));
  if (raw.version === 1) {
    if (unmapped.length > 0) {
      ignored.push(`V1 fields Hearth does not use: ${listNames(unmapped.map(([k]) => k))}`);
    }
  } else if (unmapped.length > 0) {
    extensions[KEPT_FIELDS_EXTENSION] = Object.fromEntries(unmapped);
    const groupOnly = d.group_only_greetings;
    if (Array.isArray(groupOnly) && groupOnly.length > 0) {
      ignored.push(`group_only_greetings (${groupOnly.length}): Hearth has no group chats; kept for export`);
    }
    const others = unmapped.map(([k]) => k).filter((k) => k !== "group_only_greetings");
    if (others.length > 0) imported.push(`kept for export only: ${listNames(others)}`);
  }
  if (raw.ignoredTopLevel.length > 0) {
    ignored.push(`top-level fields outside data: ${listNames(raw.ignoredTopLevel)}`);
  }
  // The card as written, for an export that gives back what Hearth did not change (source.ts).
  const sourceData =
    raw.version === 1 ? Object.fromEntries(Object.entries(d).filter(([k]) => V1_KEYS.has(k))) : d;
  return { fields, characterBook, extensions, report, source: { version: raw.version, data: sourceData } };
}

function alternateGreetings(value: unknown, report: ImportReport): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    report.warnings.push("The card's alternate_greetings is not a list and was ignored.");
    return [];
  }
  const texts = value.filter((g): g is string => typeof g === "string");
  if (texts.length < value.length) {
    report.warnings.push(
      `${value.length - texts.length} alternate greetings were not text and were ignored.`,
    );
  }
  // Empty greetings would only be blank choices in the chat.
  const greetings = texts.filter((g) => g.trim() !== "");
  if (greetings.length > MAX_ALTERNATE_GREETINGS) {
    report.warnings.push(
      `The card has ${greetings.length} alternate greetings; only the first ${MAX_ALTERNATE_GREETINGS} were kept.`,
    );
  }
  const kept = greetings
    .slice(0, MAX_ALTERNATE_GREETINGS)
    .map((g, i) => clip(g, MAX_ALTERNATE_GREETING_LENGTH, `Alternate greeting ${i + 1}`, report.warnings));
  if (kept.length > 0) report.imported.push(`alternate_greetings (${kept.length})`);
  return kept;
}

function tags(value: unknown, report: ImportReport): string[] {
  const { tags, invalid, overLimit } = normaliseTags(value);
  if (tags.length > 0) report.imported.push(`tags (${tags.length})`);
  if (invalid.length > 0) {
    report.warnings.push(
      `Tags dropped (only letters, digits, spaces and - _ & ' +, at most ${MAX_TAG_LENGTH} characters): ${listNames(invalid)}`,
    );
  }
  if (overLimit.length > 0) {
    report.warnings.push(`Tags dropped (only ${MAX_TAGS} are kept): ${listNames(overLimit)}`);
  }
  return tags;
}

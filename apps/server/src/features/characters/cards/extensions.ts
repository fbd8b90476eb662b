/**
 * Hearth's two keys inside a card's `extensions` (the V2/V3 place for application data).
 *
 * - `hearth`: written on export with the profile fields Tavern cards have no place for (title,
 *   language, NSFW flags); read back, then removed, on import.
 * - `hearth_import`: on import, the card's data fields Hearth has no column for (nickname,
 *   creator, character_version, source, group_only_greetings, creation_date, unknown fields...),
 *   verbatim. It travels with the stored extensions and is spread back into `data` on export.
 */
export const HEARTH_EXTENSION = "hearth";
export const KEPT_FIELDS_EXTENSION = "hearth_import";

/** A list for a report line, shortened so a hostile card cannot make the report huge. */
export function listNames(names: string[], max = 20): string {
  const shown = names.slice(0, max).map((n) => (n.length > 60 ? `${n.slice(0, 60)}…` : n));
  return names.length > max ? `${shown.join(", ")} and ${names.length - max} more` : shown.join(", ");
}

import { resolveMacros } from "@hearth/contract";
import type { ImportedChat } from "./types.ts";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Puts the persona in the file's user's place: `{{user}}` (and `<USER>`) and the file's user name
 * as a whole word become the persona's name; `{{char}}` the character's. Counts the user's.
 */
export function mapNames(chat: ImportedChat, characterName: string, personaName: string): number {
  const from = chat.userName && chat.userName !== personaName ? chat.userName : null;
  const pattern = from
    ? new RegExp(
        `\\{\\{\\s*user\\s*\\}\\}|<USER>|(?<![\\p{L}\\p{N}_])${escapeRegExp(from)}(?![\\p{L}\\p{N}_])`,
        "giu",
      )
    : /\{\{\s*user\s*\}\}|<USER>/gi;
  let replaced = 0;
  const map = (text: string) =>
    resolveMacros(
      text.replace(pattern, (found) => {
        // The name itself only in its own case; the macros in any.
        if (from && found.toLowerCase() === from.toLowerCase() && found !== from) return found;
        replaced++;
        return personaName;
      }),
      characterName,
      personaName,
    );
  for (const m of chat.messages) m.alternatives = m.alternatives.map(map);
  return replaced;
}

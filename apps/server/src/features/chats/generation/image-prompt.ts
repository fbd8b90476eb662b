import type { CharacterRow } from "../../characters/index.ts";

/** How much of each part goes into a picture's prompt: image models read short prompts best. */
const APPEARANCE_CHARS = 300;
const SCENE_CHARS = 300;

/** Markdown, *actions* markers, {{macros}} and runs of space removed; cut at a word. */
function plain(text: string, max: number): string {
  const flat = text
    .replace(/\{\{[^}]*\}\}/g, "")
    .replace(/[*_`#>~[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max - 20)).trim()}`;
}

/**
 * A picture's prompt, from the character's appearance and the recent chat (the newest bot
 * message, else the newest message). The appearance is the card's persona only where its owner
 * may read the definition (its creator, or a bot whose definition is visible): the prompt is
 * shown and editable, so a hidden definition would leak through it; otherwise the public title.
 */
export function buildImagePrompt(
  character: Pick<CharacterRow, "name" | "title" | "persona" | "definitionVisible" | "creatorUserId">,
  viewerId: string,
  recent: readonly { role: "user" | "bot"; content: string }[],
): string {
  const mayReadDefinition = character.definitionVisible || character.creatorUserId === viewerId;
  const appearance = plain(
    mayReadDefinition && character.persona ? character.persona : character.title,
    APPEARANCE_CHARS,
  );
  const newestBot = [...recent].reverse().find((m) => m.role === "bot" && m.content.trim());
  const newest = newestBot ?? [...recent].reverse().find((m) => m.content.trim());
  const scene = newest ? plain(newest.content, SCENE_CHARS) : "";
  return [plain(character.name, 80), appearance, scene ? `Scene: ${scene}` : ""]
    .filter(Boolean)
    .join(". ")
    .replace(/\.\./g, ".");
}

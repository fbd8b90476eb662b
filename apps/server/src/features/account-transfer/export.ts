import {
  type AccountManifest,
  type ExportedPersona,
  type ExportedSettings,
  HEARTH_ACCOUNT_FORMAT,
} from "@hearth/contract";
import { HttpError } from "../../http/errors.ts";
import type { Viewer } from "../accounts/index.ts";
import { exportCard, findCharacter } from "../characters/index.ts";
import type { ArchiveWriter } from "./archive.ts";
import { ownCharacterIds, ownConversations, ownLorebooks, ownPersonas, readSettings } from "./queries.ts";
import type { AccountTransferDeps } from "./service.ts";

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);

/** A file name part safe in every file system. */
export function safeName(text: string): string {
  return (
    [...text]
      .filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127 && !'\\/:*?"<>|'.includes(c))
      .join("")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 60) || "character"
  );
}

/**
 * Everything the member owns as one zip: manifest.json, characters/ (CharX cards with their art,
 * V3 JSON for a character without a picture; the lorebook inside), conversations/ (Hearth chat JSON, which chat import reads back),
 * personas/ (JSON and WebP avatars), lorebooks/ (the member's own books) and settings.json. Never a key, password or session.
 */
export async function exportAccount(
  deps: AccountTransferDeps,
  viewer: Viewer,
  out: ArchiveWriter,
): Promise<void> {
  const { db } = deps;
  const manifest: AccountManifest = {
    format: HEARTH_ACCOUNT_FORMAT,
    version: 1,
    hearth_version: deps.version,
    exported_at: new Date().toISOString(),
    counts: { characters: 0, conversations: 0, personas: 0, lorebooks: 0 },
    characters: [],
    conversations: [],
  };
  const cardFiles = new Map<string, string>();
  for (const id of await ownCharacterIds(db, viewer.id)) {
    const found = await findCharacter(db, id, viewer.id);
    if (!found) continue;
    // CharX carries the picture; a character without one is a V3 JSON card (a CharX would get a drawn one).
    const format = found.character.avatarKey ? "charx" : "json";
    const card = await exportCard(await deps.characters.exportable(found), format);
    const file = `characters/${safeName(found.character.name)}-${id.slice(0, 8)}.${format}`;
    await out.add(file, card.body);
    cardFiles.set(id, file);
    manifest.characters.push({ id, file, name: found.character.name });
  }

  for (const conversation of await ownConversations(db, viewer.id)) {
    const chat = await deps.chats.exportChat(viewer, conversation.id, "hearth").catch((error: unknown) => {
      // One conversation that cannot be read (gone meanwhile) leaves the others.
      if (error instanceof HttpError) return null;
      throw error;
    });
    if (!chat) continue;
    const file = `conversations/${conversation.id}.json`;
    await out.add(file, new TextEncoder().encode(chat.body));
    manifest.conversations.push({
      id: conversation.id,
      file,
      character_id: conversation.characterId,
      character_file: cardFiles.get(conversation.characterId) ?? null,
      persona_id: conversation.userPersonaId,
    });
  }

  const personaRows = await ownPersonas(db, viewer.id);
  for (const row of personaRows) {
    const avatar = row.avatarKey ? await deps.storage.get(`${row.avatarKey}-512.webp`) : null;
    const persona: ExportedPersona = {
      id: row.id,
      name: row.name,
      highlights: row.highlights,
      is_default: row.isDefault,
      avatar_file: avatar ? `personas/${row.id}.webp` : null,
      created_at: row.createdAt.toISOString(),
    };
    if (avatar && persona.avatar_file) await out.add(persona.avatar_file, avatar.body);
    await out.add(`personas/${row.id}.json`, json(persona));
  }

  // The member's own lorebooks, in the API's form; conversations name the ones attached by id.
  const books = await ownLorebooks(db, viewer.id);
  for (const book of books) await out.add(`lorebooks/${book.id}.json`, json(book.book));

  const stored = await readSettings(db, viewer.id);
  const settings: ExportedSettings = {
    highlights: stored?.highlights ?? "",
    show_nsfw: stored?.showNsfw ?? false,
    openai_mode: stored?.llmMode ?? "disabled",
    default_model_id: stored?.defaultModelId ?? null,
  };
  await out.add("settings.json", json(settings));

  manifest.counts = {
    characters: manifest.characters.length,
    conversations: manifest.conversations.length,
    personas: personaRows.length,
    lorebooks: books.length,
  };
  // The manifest last: it lists what was written.
  await out.add("manifest.json", json(manifest));
  out.end();
}

import {
  type ChatExportFormat,
  type ChatImportReport,
  chatTransferEndpoints,
  pathOf,
} from "@hearth/contract";
import { type UploadProgress, uploadTo } from "../../lib/upload.ts";

/** Uploads a chat file (SillyTavern JSONL or Hearth JSON) as a new conversation with a character. */
export function importChat(
  file: File,
  input: { characterId: string; personaId: string | null },
  onProgress: (progress: UploadProgress) => void,
): Promise<ChatImportReport> {
  return uploadTo(chatTransferEndpoints.import, undefined, file, onProgress, undefined, {
    character_id: input.characterId,
    ...(input.personaId ? { user_persona_id: input.personaId } : {}),
  });
}

/** Where a conversation's export is: a download, or the printable page (html). */
export function exportHref(conversationId: string, format: ChatExportFormat): string {
  return `${pathOf(chatTransferEndpoints.export.path, { id: conversationId })}?format=${format}`;
}

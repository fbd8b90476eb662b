import type { Persona } from "@hearth/contract";
import { avatarUrl } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { PersonaRow } from "./schema.ts";

/** The persona as the API answers it. */
export function toPersona(row: PersonaRow, storage: FileStorage): Persona {
  return {
    id: row.id,
    name: row.name,
    avatar_url: avatarUrl(storage, row.avatarKey),
    highlights: row.highlights,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

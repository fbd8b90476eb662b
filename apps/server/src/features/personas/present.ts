import type { Persona } from "@hearth/contract";
import type { FileStorage } from "../../ports/storage.ts";
import { avatarFileKey } from "../characters/present.ts";
import type { PersonaRow } from "./schema.ts";

/** The persona as the API answers it. */
export function toPersona(row: PersonaRow, storage: FileStorage): Persona {
  return {
    id: row.id,
    name: row.name,
    avatar_url: row.avatarKey ? storage.url(avatarFileKey(row.avatarKey, "large")) : null,
    highlights: row.highlights,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

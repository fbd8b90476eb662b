import { and, desc, eq, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { displayNameOf } from "../accounts/index.ts";
import { isPersonaId } from "./queries.ts";
import { personas } from "./schema.ts";

/** Who the user is in a prompt: `name` stands for `{{user}}`, `description` is the persona's highlights. */
export interface PromptPersona {
  /** The persona used, or null when the user has none and their display name stands in. */
  id: string | null;
  name: string;
  description: string;
}

/** Used when a user has no persona and no display name. */
export const FALLBACK_USER_NAME = "User";

/**
 * The persona a chat's prompt speaks for: the given one if it is this user's, else the user's
 * default persona, else the user's display name with an empty description. A persona deleted
 * since a conversation chose it therefore falls back to the default. One query in the common case.
 */
export async function resolvePersonaForPrompt(
  db: Db,
  userId: string,
  personaId: string | null,
): Promise<PromptPersona> {
  const wanted = isPersonaId(personaId) ? personaId : null;
  const [row] = await db
    .select({ id: personas.id, name: personas.name, highlights: personas.highlights })
    .from(personas)
    .where(
      and(
        eq(personas.userId, userId),
        wanted ? or(eq(personas.id, wanted), eq(personas.isDefault, true)) : eq(personas.isDefault, true),
      ),
    )
    // The chosen persona before the default, when both match.
    .orderBy(wanted ? desc(sql`${personas.id} = ${wanted}::uuid`) : desc(personas.isDefault))
    .limit(1);
  if (row) return { id: row.id, name: row.name, description: row.highlights };
  const name = await displayNameOf(db, userId);
  return { id: null, name: name?.trim() || FALLBACK_USER_NAME, description: "" };
}

import {
  type Character,
  type CharacterTranslation,
  translationEndpoints,
  translationLanguage,
} from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { assertCanEdit, assertCanOpenEditor } from "./policy.ts";
import { type CharactersRouteDeps, loadCharacter } from "./route-context.ts";
import type { CharacterTranslationRow } from "./schema.ts";
import {
  deleteTranslation,
  findTranslation,
  listTranslations,
  upsertTranslation,
} from "./translation-queries.ts";

/**
 * Translations of a bot's text fields (issue 17 item 5): the creator adds them in the editor;
 * `GET /api/characters/{id}?language=` serves one over the original (`withTranslation`).
 */

const present = (row: CharacterTranslationRow): CharacterTranslation => ({
  language: row.language,
  name: row.name,
  title: row.title,
  greeting: row.greeting,
  persona: row.persona,
  scenario: row.scenario,
  dialogue: row.dialogue,
  updated_at: row.updatedAt.toISOString(),
});

/**
 * The profile in `language` where the bot has a translation into it (its fields over the
 * original's, `language` then naming it); otherwise the profile as written. Hidden definition
 * fields stay hidden: only fields the profile shows are replaced.
 */
export async function withTranslation(
  deps: Pick<CharactersRouteDeps, "db">,
  profile: Character,
  language: string | undefined,
): Promise<Character> {
  const wanted = language ? translationLanguage.safeParse(language) : null;
  if (!wanted?.success || wanted.data === profile.language.toLowerCase()) return profile;
  const row = await findTranslation(deps.db, profile.id, wanted.data);
  if (!row) return profile;
  // A definition field withheld from this viewer (null) stays withheld.
  const shown = (original: string | null, translated: string | null) =>
    original === null ? null : (translated ?? original);
  return {
    ...profile,
    language: row.language,
    name: row.name ?? profile.name,
    title: row.title ?? profile.title,
    greeting: row.greeting ?? profile.greeting,
    persona: shown(profile.persona, row.persona),
    scenario: shown(profile.scenario, row.scenario),
    dialogue: shown(profile.dialogue, row.dialogue),
  };
}

export async function translationRoutes(app: FastifyInstance, deps: CharactersRouteDeps) {
  route(app, translationEndpoints.list, async ({ req }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    assertCanOpenEditor(viewer, found.character);
    const rows = await listTranslations(deps.db, found.character.id);
    return { translations: rows.map(present) };
  });

  route(app, translationEndpoints.put, async ({ req, params, body }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    assertCanEdit(viewer, found.character);
    return present(await upsertTranslation(deps.db, found.character.id, params.language, body));
  });

  route(app, translationEndpoints.remove, async ({ req, params }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    assertCanEdit(viewer, found.character);
    if (!(await deleteTranslation(deps.db, found.character.id, params.language))) {
      throw notFound("No translation into that language.");
    }
  });
}

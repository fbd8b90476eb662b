// What other features use of characters: the visibility rule for chats, reading characters,
// their cards for lists (with avatar URLs from the storage port), and the service.

import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { characters } from "./schema.ts";

export { exportCard } from "./cards/export.ts";
export { parseCard } from "./cards/parse.ts";
export { importCard } from "./import.ts";
export { type CardRow, findCardRows } from "./list-queries.ts";
export {
  assertCanChat,
  assertCanEdit,
  canChat,
  canSeeDefinition,
  canView,
  INVALID_ACCESS_MESSAGE,
  invalidAccess,
  type PolicyCharacter,
} from "./policy.ts";
export { toCard, toCharacter } from "./present.ts";
export { type FoundCharacter, findCharacter, handCharactersTo } from "./queries.ts";
export { allowNsfw } from "./route-context.ts";
export { characterRoutes } from "./routes.ts";
export type { CharacterRow } from "./schema.ts";
export { ensureSystemUser, SYSTEM_USERNAME, seedDemoCharacters } from "./seed.ts";
export {
  type AdminAction,
  CharacterService,
  chattableCharacter,
  type ModerationHooks,
  type ModeratorChange,
} from "./service.ts";
export { estimateTokens, modelTokenCounter } from "./tokens.ts";

/**
 * Sets a bot's rating_score (0..1, null before any rating): the ratings feature keeps it in step
 * with the bot's ratings, in the same transaction (`db` may be one). updated_at is left alone: a
 * rating is not an edit.
 */
export async function setCharacterRatingScore(
  db: Db,
  characterId: string,
  score: number | null,
): Promise<void> {
  await db.update(characters).set({ ratingScore: score }).where(eq(characters.id, characterId));
}

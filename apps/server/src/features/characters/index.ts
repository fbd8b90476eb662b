// What other features use of characters: the visibility rule for chats, reading characters,
// their cards for lists (with avatar URLs from the storage port), and the service.

export { exportCard } from "./cards/export.ts";
export { parseCard } from "./cards/parse.ts";
export { type CardRow, findCardRows } from "./list-queries.ts";
export { canChat, canSeeDefinition, canView, INVALID_ACCESS_MESSAGE, invalidAccess } from "./policy.ts";
export { toCard } from "./present.ts";
export { countCharacterMessage, type FoundCharacter, findCharacter } from "./queries.ts";
export { characterRoutes } from "./routes.ts";
export type { CharacterRow } from "./schema.ts";
export { ensureSystemUser, SYSTEM_USERNAME, seedDemoCharacters } from "./seed.ts";
export { CharacterService, chattableCharacter } from "./service.ts";
export { estimateTokens, modelTokenCounter } from "./tokens.ts";

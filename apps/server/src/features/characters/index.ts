// What other features use of characters: the visibility rule for chats, reading characters,
// their cards for lists (with avatar URLs from the storage port), and the service.
export { type CardRow, findCardRows } from "./list-queries.ts";
export { canChat, canSeeDefinition, canView, INVALID_ACCESS_MESSAGE, invalidAccess } from "./policy.ts";
export { avatarUrl, toCard } from "./present.ts";
export { type FoundCharacter, findCharacter } from "./queries.ts";
export type { CharacterRow } from "./schema.ts";
export { CharacterService } from "./service.ts";
export { estimateTokens } from "./tokens.ts";

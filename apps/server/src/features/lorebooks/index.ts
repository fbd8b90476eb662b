// Lorebooks (issue 14 item 5): reading a card's character_book or a world-info file, which
// entries a turn activates, the wire form and file formats, and standalone books (routes from
// app.ts). Chats' worker applies the character's book and the conversation's attached books to
// every reply (chats/generation/prompt-context.ts), and a clone copies the attachments;
// characters store a character_book written here and present it in the wire form.
export { type ActivatedEntry, type Activation, activateLore, loreText } from "./activation.ts";
export { type Lorebook, type LoreEntry, type LorePosition, readLorebook } from "./book.ts";
export { attachedBooksForPrompt } from "./conversation-lore.ts";
export { type CharacterBookJson, toCharacterBook, toWorldInfo } from "./formats.ts";
export { copyConversationLorebooks } from "./queries.ts";
export { type LorebookRouteDeps, lorebookRoutes } from "./routes.ts";
export { characterBookForWire } from "./wire.ts";

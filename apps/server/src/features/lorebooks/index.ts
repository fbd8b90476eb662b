// Lorebooks (issue 14 item 5): reading a card's character_book or a world-info file, and which
// entries a turn activates. Chats' worker applies a character's book to every reply
// (chats/generation/prompt-context.ts).
export { type ActivatedEntry, type Activation, activateLore, loreText } from "./activation.ts";
export { type Lorebook, type LoreEntry, type LorePosition, readLorebook } from "./book.ts";

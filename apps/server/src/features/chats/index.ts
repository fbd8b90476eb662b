// What the rest of the server uses of chats: installing its routes, worker and upkeep, and
// pricing a character's definition against a chat's window (for the characters editor).
export { promptCostOf } from "./generation/budget.ts";
export { lineGauges } from "./generation/line-metrics.ts";
export { openImageServices } from "./generation/open-images.ts";
export { installChat } from "./install.ts";
// Chat import (chat-transfer) starts conversations only with characters these rules allow.
export { chattable } from "./policy.ts";

// Memories (issue 14): Manage Memories' routes, and what prompts recall of a conversation's
// memories. The routes register from app.ts; chats' worker calls recallMemories, a clone
// copyMemories, and edits of messages forgetMemoriesOf.
export { copyMemories, forgetMemoriesOf } from "./queries.ts";
export { type RecalledMemory, recallMemories } from "./recall.ts";
export { memoryRoutes } from "./routes.ts";

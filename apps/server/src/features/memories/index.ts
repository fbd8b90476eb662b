// Memories (issue 14): Manage Memories' routes, and what prompts recall of a conversation's
// memories. The routes register from app.ts; chats' worker calls recallMemories, a clone
// copyMemories, and edits of messages forgetMemoriesOf; chats' install runs automatic memory
// (installAutoMemory) and queues it after each reply (afterReply).
export {
  AUTO_MEMORY_JOB,
  afterReply,
  installAutoMemory,
  type MemoriesWrittenEvent,
  memoryStream,
  runAutoMemory,
} from "./auto-memory.ts";
export { type MemorySite, memoriesOffered } from "./policy.ts";
export { copyMemories, forgetMemoriesOf } from "./queries.ts";
export { type RecalledMemory, recallMemories } from "./recall.ts";
export { memoryRoutes } from "./routes.ts";
export { enableMemoryVectors } from "./vectors.ts";

import type { Memory } from "@hearth/contract";
import type { MemoryRow } from "./schema.ts";

/** The memory as the API answers it. */
export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    content: row.content,
    pinned: row.pinned,
    source: row.source,
    message_ids: row.messageIds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

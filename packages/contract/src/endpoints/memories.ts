import { endpoint, idParams } from "../endpoint.ts";
import { memory, memoryCreate, memoryList, memoryUpdate, promptReport } from "../memories.ts";

/**
 * Memories (apps/server/src/features/memories): the conversation owner's, with the
 * memory_manager permission and not in the partner edition. Another user's conversation or
 * memory answers 404 like a missing one.
 */
export const memoryEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/conversations/{id}/memories",
    summary: "A conversation's memories, pinned first, then newest first, with the tier's memory budget",
    tag: "Memories",
    access: "member",
    params: idParams,
    response: memoryList,
  }),
  create: endpoint({
    method: "POST",
    path: "/api/conversations/{id}/memories",
    summary: "Add a memory (at most 250 characters) to a conversation",
    tag: "Memories",
    access: "member",
    params: idParams,
    body: memoryCreate,
    response: memory,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/memories/{id}",
    summary: "Edit a memory's text or pin it (an edited automatic memory becomes the user's own)",
    tag: "Memories",
    access: "member",
    params: idParams,
    body: memoryUpdate,
    response: memory,
  }),
  delete: endpoint({
    method: "DELETE",
    path: "/api/memories/{id}",
    summary: "Delete a memory",
    tag: "Memories",
    access: "member",
    params: idParams,
    response: null,
  }),
  prompt: endpoint({
    method: "GET",
    path: "/api/messages/{id}/prompt",
    summary:
      "What the prompt that wrote a bot message held: memories, lore entries, persona, history and cuts",
    tag: "Memories",
    access: "member",
    params: idParams,
    response: promptReport,
  }),
} as const;

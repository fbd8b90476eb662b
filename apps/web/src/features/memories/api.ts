import {
  type AppConfig,
  type Me,
  type Memory,
  type MemoryCreate,
  type MemoryUpdate,
  memoryEndpoints,
} from "@hearth/contract";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";

/** A conversation's memories (chat-and-characters §2 Manage Memories) and "Why this reply?". */

const root = ["memories"] as const;
export const memoryKeys = {
  all: root,
  list: (conversationId: string) => [...root, "list", conversationId] as const,
  prompt: (messageId: string) => [...root, "prompt", messageId] as const,
};

/**
 * Manage Memories: the memory_manager permission, on a site that offers it (never the partner
 * edition or a flagged build, §6). Guests have no paid plan, so they never have the permission.
 */
export function canManageMemories(me: Me | null, config: AppConfig): boolean {
  return Boolean(me && !me.is_guest && me.permissions.includes("memory_manager")) && config.memory_manager;
}

export const memoryListQuery = (conversationId: string) =>
  queryOptions({
    queryKey: memoryKeys.list(conversationId),
    queryFn: ({ signal }) => call(memoryEndpoints.list, { params: { id: conversationId }, signal }),
  });

/** After any change the list is read again (order and automatic memories are the server's). */
function changed(queryClient: QueryClient, conversationId: string) {
  return queryClient.invalidateQueries({ queryKey: memoryKeys.list(conversationId) });
}

export async function createMemory(
  queryClient: QueryClient,
  conversationId: string,
  body: MemoryCreate,
): Promise<Memory> {
  const memory = await call(memoryEndpoints.create, { params: { id: conversationId }, body });
  await changed(queryClient, conversationId);
  return memory;
}

export async function updateMemory(
  queryClient: QueryClient,
  memory: Memory,
  body: MemoryUpdate,
): Promise<Memory> {
  const updated = await call(memoryEndpoints.update, { params: { id: memory.id }, body });
  await changed(queryClient, memory.conversation_id);
  return updated;
}

export async function deleteMemory(queryClient: QueryClient, memory: Memory): Promise<void> {
  await call(memoryEndpoints.delete, { params: { id: memory.id } });
  await changed(queryClient, memory.conversation_id);
}

/** What the prompt behind a bot reply held; a 404 means none was recorded (4xx is not retried). */
export const promptReportQuery = (messageId: string) =>
  queryOptions({
    queryKey: memoryKeys.prompt(messageId),
    queryFn: ({ signal }) => call(memoryEndpoints.prompt, { params: { id: messageId }, signal }),
    staleTime: 60_000,
  });

export const isNotFound = (error: unknown) => isApiRequestError(error) && error.status === 404;

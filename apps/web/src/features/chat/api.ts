import {
  CONVERSATION_PAGE_SIZE,
  type Conversation,
  type ConversationCreated,
  chatEndpoints,
  type conversationClone,
  type conversationUpdate,
  generationEndpoints,
  MESSAGE_PAGE_SIZE,
  type MessagePage,
  type messageEdit,
  modelEndpoints,
} from "@hearth/contract";
import { infiniteQueryOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { call } from "../../lib/client.ts";

/** Conversations and messages (chat-and-characters §7), served by apps/server features/chats. */

const root = ["conversations"] as const;
export const chatKeys = {
  all: root,
  list: [...root, "list"] as const,
  byCharacter: (characterId: string) => [...root, "character", characterId] as const,
  detail: (id: string) => [...root, "detail", id] as const,
  newestPage: (id: string) => [...root, "messages", id] as const,
};

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.detail(id),
    queryFn: ({ signal }) => call(chatEndpoints.get, { params: { id }, signal }),
  });

/**
 * The newest page only: opening a chat fetches one page, never the whole history. Older pages
 * are read on demand and kept by the chat screen, not in this cache.
 */
export const newestMessagesQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.newestPage(id),
    queryFn: ({ signal }) => fetchNewestMessages(id, signal),
    // The screen copies the page into its own state once; a background refetch would not show.
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** The newest page of a chat's messages. */
export function fetchNewestMessages(id: string, signal?: AbortSignal): Promise<MessagePage> {
  return call(chatEndpoints.messages, { params: { id }, query: { limit: MESSAGE_PAGE_SIZE }, signal });
}

/** The page before a message already shown. */
export function fetchMessagesBefore(id: string, before: string): Promise<MessagePage> {
  return call(chatEndpoints.messages, { params: { id }, query: { limit: MESSAGE_PAGE_SIZE, before } });
}

/** One chat, read again (the cached query is left to the caller). */
export function fetchConversation(id: string): Promise<Conversation> {
  return call(chatEndpoints.get, { params: { id } });
}

/** Newest first, whatever order the server used. */
function byRecency<L extends { conversations: Conversation[] }>(list: L): L {
  const conversations = [...list.conversations].sort(
    (a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at),
  );
  return { ...list, conversations };
}

export const characterConversationsQuery = (characterId: string) =>
  queryOptions({
    queryKey: chatKeys.byCharacter(characterId),
    queryFn: async ({ signal }) =>
      byRecency(await call(chatEndpoints.listForCharacter, { params: { id: characterId }, signal })),
  });

/** /chats: 25 at a time, the next page after the last id seen. */
export const conversationListQuery = infiniteQueryOptions({
  queryKey: chatKeys.list,
  queryFn: ({ pageParam, signal }) =>
    call(chatEndpoints.list, { query: { limit: CONVERSATION_PAGE_SIZE, last_id: pageParam }, signal }),
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last) => (last.is_last_id ? undefined : last.conversations.at(-1)?.id),
});

export const modelsQuery = queryOptions({
  queryKey: ["models"],
  queryFn: ({ signal }) => call(modelEndpoints.list, { signal }),
  staleTime: 5 * 60_000,
});

/** The models with the viewer's stored choice checked by the server (selected_id falls back to the default). */
export const modelsForChoiceQuery = (selected: string | null) =>
  queryOptions({
    queryKey: [...modelsQuery.queryKey, { selected }],
    queryFn: ({ signal }) =>
      call(modelEndpoints.list, { query: { selected: selected ?? undefined }, signal }),
    staleTime: 5 * 60_000,
  });

/** Creates a conversation and seeds the caches, so the chat opens without another round trip. */
export async function createConversation(
  queryClient: QueryClient,
  characterId: string,
): Promise<ConversationCreated> {
  const created = await call(chatEndpoints.create, { body: { character_id: characterId } });
  queryClient.setQueryData(chatKeys.detail(created.conversation.id), created.conversation);
  queryClient.setQueryData<MessagePage>(chatKeys.newestPage(created.conversation.id), {
    messages: created.messages,
    has_more: false,
  });
  void queryClient.invalidateQueries({ queryKey: chatKeys.list });
  void queryClient.invalidateQueries({ queryKey: chatKeys.byCharacter(characterId) });
  return created;
}

export function deleteConversation(id: string): Promise<void> {
  return call(chatEndpoints.remove, { params: { id } });
}

export function selectAlternative(messageId: string, index: number) {
  return call(chatEndpoints.selectAlternative, {
    params: { id: messageId },
    body: { alternative_index: index },
  });
}

export function stopGeneration(generationId: string): Promise<void> {
  return call(generationEndpoints.stop, { params: { id: generationId } });
}

// --- Chat tools: edit, remove, clone, title, persona (chat-and-characters §2, §4, §5) --------

/** New text or image prompt of one message; 409 while a reply is being written. */
export function editMessage(id: string, change: z.input<typeof messageEdit>) {
  return call(chatEndpoints.replaceMessage, { params: { id }, body: change });
}

/** Removes that message and every one after it. */
export function removeMessagesFrom(conversationId: string, fromMessageId: string) {
  return call(chatEndpoints.removeMessagesFrom, {
    params: { id: conversationId },
    query: { from: fromMessageId },
  });
}

export function cloneConversation(conversationId: string, body: z.input<typeof conversationClone>) {
  return call(chatEndpoints.clone, { params: { id: conversationId }, body });
}

/** Changes the title or the persona; the answer is seeded into the caches the screens read. */
export async function updateConversation(
  queryClient: QueryClient,
  id: string,
  change: z.input<typeof conversationUpdate>,
): Promise<Conversation> {
  const updated = await call(chatEndpoints.update, { params: { id }, body: change });
  queryClient.setQueryData<Conversation>(chatKeys.detail(id), (current) =>
    current ? { ...current, ...updated, active_generation_id: current.active_generation_id } : updated,
  );
  void queryClient.invalidateQueries({ queryKey: chatKeys.list });
  void queryClient.invalidateQueries({ queryKey: chatKeys.byCharacter(updated.character_id) });
  return updated;
}

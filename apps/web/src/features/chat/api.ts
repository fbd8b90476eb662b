import type {
  Conversation,
  ConversationCreated,
  ConversationList,
  conversationClone,
  conversationUpdate,
  Message,
  MessagePage,
  messageEdit,
  RemovedMessages,
} from "@hearth/contract";
import { modelEndpoints } from "@hearth/contract";
import { chatLimits } from "@hearth/contract/labels";
import { infiniteQueryOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { ApiRequestError, api, apiRequest } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { runGenerationStream } from "./generation-stream.ts";

/** Conversations and messages (chat-and-characters §7), served by apps/server features/chats. */

/** Messages per page when opening a chat or loading previous ones (the server's default). */
export const MESSAGE_PAGE_SIZE = 30;

const root = ["conversations"] as const;
export const chatKeys = {
  all: root,
  list: [...root, "list"] as const,
  byCharacter: (characterId: string) => [...root, "character", characterId] as const,
  detail: (id: string) => [...root, "detail", id] as const,
  newestPage: (id: string) => [...root, "messages", id] as const,
};

const conversationPath = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;
const characterPath = (id: string) => `/api/characters/${encodeURIComponent(id)}`;

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.detail(id),
    queryFn: ({ signal }) => api.get<Conversation>(conversationPath(id), undefined, signal),
  });

/**
 * The newest page only: opening a chat fetches one page, never the whole history. Older pages
 * are read on demand and kept by the chat screen, not in this cache.
 */
export const newestMessagesQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.newestPage(id),
    queryFn: ({ signal }) =>
      api.get<MessagePage>(`${conversationPath(id)}/messages`, { limit: MESSAGE_PAGE_SIZE }, signal),
    // The screen copies the page into its own state once; a background refetch would not show.
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export function fetchMessagesBefore(id: string, before: string): Promise<MessagePage> {
  return api.get<MessagePage>(`${conversationPath(id)}/messages`, { limit: MESSAGE_PAGE_SIZE, before });
}

/** Newest first, whatever order the server used. */
function byRecency(list: ConversationList): ConversationList {
  const conversations = [...list.conversations].sort(
    (a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at),
  );
  return { ...list, conversations };
}

export const characterConversationsQuery = (characterId: string) =>
  queryOptions({
    queryKey: chatKeys.byCharacter(characterId),
    queryFn: async ({ signal }) =>
      byRecency(
        await api.get<ConversationList>(`${characterPath(characterId)}/conversations`, undefined, signal),
      ),
  });

/** /chats: 25 at a time, the next page after the last id seen. */
export const conversationListQuery = infiniteQueryOptions({
  queryKey: chatKeys.list,
  queryFn: ({ pageParam, signal }) =>
    api.get<ConversationList>(
      "/api/conversations",
      { limit: chatLimits.conversationPage, last_id: pageParam },
      signal,
    ),
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
  const created = await api.post<ConversationCreated>("/api/conversations", { character_id: characterId });
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
  return api.delete<void>(conversationPath(id));
}

export function selectAlternative(messageId: string, index: number): Promise<Message> {
  return api.put<Message>(`/api/messages/${encodeURIComponent(messageId)}/alternative`, {
    alternative_index: index,
  });
}

export function stopGeneration(generationId: string): Promise<void> {
  return api.post<void>(`/api/generations/${encodeURIComponent(generationId)}/stop`);
}

// --- Chat tools: edit, remove, clone, title, persona (chat-and-characters §2, §4, §5) --------

const messagePath = (id: string) => `/api/messages/${encodeURIComponent(id)}`;

/** New text or image prompt of one message; 409 while a reply is being written. */
export function editMessage(id: string, change: z.input<typeof messageEdit>) {
  return api.put<Message>(messagePath(id), change);
}

/** Removes that message and every one after it. */
export function removeMessagesFrom(conversationId: string, fromMessageId: string) {
  return apiRequest<RemovedMessages>(`${conversationPath(conversationId)}/messages`, {
    method: "DELETE",
    query: { from: fromMessageId },
  });
}

export function cloneConversation(conversationId: string, body: z.input<typeof conversationClone>) {
  return api.post<Pick<ConversationCreated, "conversation">>(
    `${conversationPath(conversationId)}/clone`,
    body,
  );
}

/** Changes the title or the persona; the answer is seeded into the caches the screens read. */
export async function updateConversation(
  queryClient: QueryClient,
  id: string,
  change: z.input<typeof conversationUpdate>,
): Promise<Conversation> {
  const updated = await api.patch<Conversation>(conversationPath(id), change);
  queryClient.setQueryData<Conversation>(chatKeys.detail(id), (current) =>
    current ? { ...current, ...updated, active_generation_id: current.active_generation_id } : updated,
  );
  void queryClient.invalidateQueries({ queryKey: chatKeys.list });
  void queryClient.invalidateQueries({ queryKey: chatKeys.byCharacter(updated.character_id) });
  return updated;
}

/**
 * Makes a new image for a message after its prompt changed (the image-prompt edit of §4): the one
 * generation call with type image. Servers without image generation refuse it with a message.
 */
export async function regenerateImage(conversationId: string, messageId: string): Promise<void> {
  let failure: ApiRequestError | null = null;
  await runGenerationStream({
    request: { conversation_id: conversationId, type: "image", action: "regenerate", message_id: messageId },
    signal: new AbortController().signal,
    onEvent: (event) => {
      if (event.type === "error") failure = new ApiRequestError(200, event.code, event.message);
    },
  });
  if (failure) throw failure;
}

import {
  type Lorebook,
  type LorebookBody,
  type LorebookImportResult,
  lorebookEndpoints,
  type Me,
  pathOf,
} from "@hearth/contract";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";
import { type UploadProgress, uploadTo } from "../../lib/upload.ts";

/** Standalone lorebooks, the editor's test box and a chat's attached books (lorebookEndpoints). */

const root = ["lorebooks"] as const;
export const lorebookKeys = {
  all: root,
  list: [...root, "list"] as const,
  detail: (id: string) => [...root, "detail", id] as const,
  conversation: (conversationId: string) => [...root, "conversation", conversationId] as const,
};

/** Members keep lorebooks; guests are answered 403 by every lorebook endpoint. */
export const canUseLorebooks = (me: Me | null) => Boolean(me && !me.is_guest);

export const lorebookListQuery = queryOptions({
  queryKey: lorebookKeys.list,
  queryFn: ({ signal }) => call(lorebookEndpoints.list, { signal }),
});

export const lorebookQuery = (id: string) =>
  queryOptions({
    queryKey: lorebookKeys.detail(id),
    queryFn: ({ signal }) => call(lorebookEndpoints.get, { params: { id }, signal }),
    // The editor takes a snapshot; a refetch under it would only confuse Discard.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

function saved(queryClient: QueryClient, book: Lorebook) {
  queryClient.setQueryData(lorebookKeys.detail(book.id), book);
  void queryClient.invalidateQueries({ queryKey: lorebookKeys.list });
  // Attached lists carry names and counts.
  void queryClient.invalidateQueries({ queryKey: [...root, "conversation"] });
}

export async function createLorebook(queryClient: QueryClient, body: LorebookBody): Promise<Lorebook> {
  const book = await call(lorebookEndpoints.create, { body });
  saved(queryClient, book);
  return book;
}

export async function updateLorebook(
  queryClient: QueryClient,
  id: string,
  body: LorebookBody,
): Promise<Lorebook> {
  const book = await call(lorebookEndpoints.update, { params: { id }, body });
  saved(queryClient, book);
  return book;
}

export async function deleteLorebook(queryClient: QueryClient, id: string): Promise<void> {
  await call(lorebookEndpoints.delete, { params: { id } });
  queryClient.removeQueries({ queryKey: lorebookKeys.detail(id) });
  await queryClient.invalidateQueries({ queryKey: lorebookKeys.list });
  void queryClient.invalidateQueries({ queryKey: [...root, "conversation"] });
}

export async function importLorebook(
  queryClient: QueryClient,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
): Promise<LorebookImportResult> {
  const result = await uploadTo(lorebookEndpoints.import, undefined, file, onProgress);
  saved(queryClient, result.lorebook);
  return result;
}

export const lorebookHref = (id: string) => `/lorebooks/${encodeURIComponent(id)}`;

export type LorebookExportFormat = "worldinfo" | "character_book";

/** A link that downloads the book (the browser follows it with the session cookie). */
export const lorebookExportHref = (id: string, format: LorebookExportFormat) =>
  `${pathOf(lorebookEndpoints.export.path, { id })}?${new URLSearchParams({ format })}`;

export const testLorebook = (book: LorebookBody, text: string, signal?: AbortSignal) =>
  call(lorebookEndpoints.test, { body: { book, text }, signal });

export const conversationLorebooksQuery = (conversationId: string) =>
  queryOptions({
    queryKey: lorebookKeys.conversation(conversationId),
    queryFn: ({ signal }) =>
      call(lorebookEndpoints.conversationList, { params: { id: conversationId }, signal }),
  });

export async function setConversationLorebooks(
  queryClient: QueryClient,
  conversationId: string,
  lorebookIds: string[],
) {
  const answer = await call(lorebookEndpoints.conversationSet, {
    params: { id: conversationId },
    body: { lorebook_ids: lorebookIds },
  });
  queryClient.setQueryData(lorebookKeys.conversation(conversationId), answer);
  return answer;
}

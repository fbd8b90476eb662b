import {
  type CardFileFormat,
  CHARACTER_PAGE_MAX,
  CHARACTER_PAGE_SIZE,
  type Character,
  type CharacterCard,
  type CharacterCreate,
  type CharacterPage,
  type CharacterSort,
  type CharacterUpdate,
  characterEndpoints,
  type FavoriteState,
  type ModerationStatus,
  type MyCharactersSort,
  pathOf,
  type Visibility,
} from "@hearth/contract";
import {
  type InfiniteData,
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { call } from "../../lib/client.ts";
import { type UploadProgress, uploadTo } from "../../lib/upload.ts";

/**
 * The characters API of chat-and-characters §7 (apps/server features/characters), called through
 * the contract's declarations (characterEndpoints). `switch=T1` is carried on the creator's calls
 * as the spec's client does.
 */

const root = ["characters"] as const;
export const characterKeys = {
  all: root,
  browse: (params: BrowseParams) => [...root, "browse", params] as const,
  tags: (nsfw: boolean) => [...root, "tags", nsfw] as const,
  detail: (id: string) => [...root, "detail", id] as const,
  edit: (id: string) => [...root, "edit", id] as const,
  mine: [...root, "mine"] as const,
  mineList: (params: MineParams) => [...root, "mine", params] as const,
  creator: (username: string, nsfw: boolean) => [...root, "creator", username, nsfw] as const,
  favorites: [...root, "favorites"] as const,
};

/** A cursor-paged list of cards, one page per call of `fetchPage`. */
function pagedList(
  key: readonly unknown[],
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<CharacterPage>,
) {
  return infiniteQueryOptions({
    queryKey: key,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: (previous) => previous,
  });
}

export type BrowseSort = CharacterSort;
export interface BrowseParams {
  q: string;
  tags: string[];
  nsfw: boolean;
  sort: BrowseSort;
}

export const browseQuery = (p: BrowseParams) =>
  pagedList(characterKeys.browse(p), (cursor, signal) =>
    call(characterEndpoints.browse, {
      query: {
        q: p.q || undefined,
        tags: p.tags.length ? p.tags.join(",") : undefined,
        nsfw: String(p.nsfw),
        sort: p.sort,
        limit: CHARACTER_PAGE_SIZE,
        cursor,
      },
      signal,
    }),
  );

/** The most used tags, as many as the server gives unless asked (the browse page shows some). */
export const tagsQuery = (nsfw: boolean) =>
  queryOptions({
    queryKey: characterKeys.tags(nsfw),
    queryFn: ({ signal }) => call(characterEndpoints.tags, { query: { nsfw: String(nsfw) }, signal }),
    staleTime: 5 * 60_000,
  });

export const characterQuery = (id: string) =>
  queryOptions({
    queryKey: characterKeys.detail(id),
    queryFn: ({ signal }) => call(characterEndpoints.get, { params: { id }, signal }),
  });

/** The creator's edit view: 403 'You are not allowed to access this page' for anyone else. */
export const characterEditQuery = (id: string) =>
  queryOptions({
    queryKey: characterKeys.edit(id),
    queryFn: ({ signal }) =>
      call(characterEndpoints.get, { params: { id }, query: { switch: "T1" }, signal }),
    // The form takes a snapshot; refetching under it would only confuse the diff.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

/** The orders My Chatbots offers (the contract has more). */
export type MineSort = Extract<MyCharactersSort, "status" | "new" | "name">;
export interface MineParams {
  q: string;
  visibility?: Visibility;
  moderation_status?: ModerationStatus;
  sort: MineSort;
}

/** My Chatbots: the creator's own bots, filtered and sorted by the server, a page at a time. */
export const myCharactersQuery = (p: MineParams) =>
  pagedList(characterKeys.mineList(p), (cursor, signal) =>
    call(characterEndpoints.mine, {
      query: {
        switch: "T1",
        q: p.q || undefined,
        visibility: p.visibility,
        moderation_status: p.moderation_status,
        sort: p.sort,
        limit: CHARACTER_PAGE_MAX,
        cursor,
      },
      signal,
    }),
  );

/** The creator's bots that need a fix, for syncing drafts (§4). */
export const fixRequiredQuery = queryOptions({
  queryKey: [...characterKeys.mine, "fix_required"] as const,
  queryFn: ({ signal }) =>
    call(characterEndpoints.mine, {
      query: { switch: "T1", moderation_status: "fix_required", limit: CHARACTER_PAGE_MAX },
      signal,
    }),
});

export const favoritesQuery = pagedList(characterKeys.favorites, (cursor, signal) =>
  call(characterEndpoints.favorites, { query: { limit: CHARACTER_PAGE_MAX, cursor }, signal }),
);

export const creatorQuery = (username: string, nsfw: boolean) =>
  queryOptions({
    queryKey: characterKeys.creator(username, nsfw),
    queryFn: ({ signal }) =>
      call(characterEndpoints.creator, { params: { username }, query: { nsfw: String(nsfw) }, signal }),
  });

/** Puts a fresh Character in the caches that hold it and refreshes the lists around it. */
function useCharacterSaved() {
  const queryClient = useQueryClient();
  return (saved: Character) => {
    queryClient.setQueryData(characterKeys.edit(saved.id), saved);
    queryClient.setQueryData(characterKeys.detail(saved.id), saved);
    void queryClient.invalidateQueries({ queryKey: characterKeys.mine });
    void queryClient.invalidateQueries({ queryKey: [...root, "browse"] });
  };
}

export function useCreateCharacter() {
  const saved = useCharacterSaved();
  return useMutation({
    mutationFn: (values: CharacterCreate) =>
      call(characterEndpoints.create, { query: { switch: "T1" }, body: values }),
    onSuccess: saved,
  });
}

export function useUpdateCharacter(id: string) {
  const saved = useCharacterSaved();
  return useMutation({
    mutationFn: (changes: CharacterUpdate) =>
      call(characterEndpoints.update, { params: { id }, query: { switch: "T1" }, body: changes }),
    onSuccess: saved,
  });
}

export function useDeleteCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(characterEndpoints.delete, { params: { id } }),
    onSuccess: (_, id) => {
      queryClient.setQueriesData<InfiniteData<CharacterPage>>({ queryKey: characterKeys.mine }, (data) =>
        data?.pages
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                characters: page.characters.filter((c) => c.id !== id),
              })),
            }
          : data,
      );
      queryClient.removeQueries({ queryKey: characterKeys.detail(id) });
      queryClient.removeQueries({ queryKey: characterKeys.edit(id) });
      void queryClient.invalidateQueries({ queryKey: characterKeys.all });
    },
  });
}

export function useFavorite(id: string) {
  const queryClient = useQueryClient();
  const patch = (state: Partial<FavoriteState>) =>
    queryClient.setQueryData<Character>(characterKeys.detail(id), (character) =>
      character ? { ...character, ...state } : character,
    );
  return useMutation({
    mutationFn: (favorite: boolean) =>
      call(favorite ? characterEndpoints.favorite : characterEndpoints.unfavorite, { params: { id } }),
    // Show the change at once; the answer carries the true count.
    onMutate: (favorite) => patch({ is_favorite: favorite }),
    onSuccess: (state) => patch(state),
    onError: () => void queryClient.invalidateQueries({ queryKey: characterKeys.detail(id) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: characterKeys.favorites }),
  });
}

/** Avatar upload answers with the updated character. */
export function uploadAvatar(id: string, file: File, onProgress?: (progress: UploadProgress) => void) {
  return uploadTo(characterEndpoints.setAvatar, { id }, file, onProgress);
}

export const removeAvatar = (id: string) => call(characterEndpoints.removeAvatar, { params: { id } });

/** After an avatar change: the new picture everywhere, without touching the form's snapshot. */
export function useAvatarChanged() {
  const queryClient = useQueryClient();
  return (id: string, avatarUrl: string | null) => {
    for (const key of [characterKeys.edit(id), characterKeys.detail(id)]) {
      queryClient.setQueryData<Character>(key, (character) =>
        character ? { ...character, avatar_url: avatarUrl } : character,
      );
    }
    void queryClient.invalidateQueries({ queryKey: characterKeys.mine });
    void queryClient.invalidateQueries({ queryKey: [...root, "browse"] });
  };
}

export function importCard(file: File, onProgress?: (progress: UploadProgress) => void) {
  return uploadTo(characterEndpoints.import, undefined, file, onProgress);
}

/** A link that downloads the card file (the browser follows it with the session cookie). */
export const exportHref = (id: string, format: CardFileFormat) =>
  `${pathOf(characterEndpoints.export.path, { id })}?${new URLSearchParams({ format })}`;

/** Pages of a list answer as one list of cards (cursor pages may overlap after edits). */
export function pagedCards(data: InfiniteData<CharacterPage> | undefined): CharacterCard[] {
  const seen = new Set<string>();
  const cards: CharacterCard[] = [];
  for (const page of data?.pages ?? []) {
    for (const card of page.characters) {
      if (seen.has(card.id)) continue;
      seen.add(card.id);
      cards.push(card);
    }
  }
  return cards;
}

import { type BlockedCreator, blockingEndpoints } from "@hearth/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";
import { clearRecommendationCache } from "../recommendations/api.ts";

/** Blocked creators (accounts-billing-admin §2.2, §7), served by apps/server features/blocking. */

export const blockingKeys = { list: ["blocked-creators"] as const };

export const blockedCreatorsQuery = queryOptions({
  queryKey: blockingKeys.list,
  queryFn: ({ signal }) => call(blockingEndpoints.list, { signal }),
});

/** A creator as the dialogs name them. */
export type CreatorRef = Pick<BlockedCreator, "id" | "username"> & { name?: string | null };

/** How a creator is named in text: @username, else their name (an account with no username has no page). */
export const creatorLabel = (c: CreatorRef) =>
  c.username ? `@${c.username}` : c.name?.trim() || "this creator";

/**
 * Blocking or unblocking changes what lists show (browse, search, tags, creator pages,
 * recommendations) and whether chats with their bots open, so those are read again.
 */
function useRefreshAfterBlock() {
  const queryClient = useQueryClient();
  return () => {
    clearRecommendationCache();
    return Promise.all(
      [blockingKeys.list, ["characters"], ["recommendations"], ["conversations"]].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
  };
}

export function useBlockCreator() {
  const refresh = useRefreshAfterBlock();
  return useMutation({
    mutationFn: (creatorId: string) => call(blockingEndpoints.block, { body: { creator: creatorId } }),
    onSuccess: refresh,
  });
}

export function useUnblockCreator() {
  const refresh = useRefreshAfterBlock();
  return useMutation({
    mutationFn: (creatorId: string) => call(blockingEndpoints.unblock, { params: { id: creatorId } }),
    onSuccess: refresh,
  });
}

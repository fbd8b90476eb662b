import {
  ADMIN_USER_PAGE_SIZE,
  type AdminUserList,
  type AdminUserUpdate,
  accountEndpoints,
} from "@hearth/contract";
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";
import { meQuery } from "../../lib/session.ts";

const usersKey = ["admin", "users"] as const;

/** Users matching `search`, a page at a time (cursor pagination). */
export function useAdminUsers(search: string) {
  return useInfiniteQuery({
    queryKey: [...usersKey, search],
    queryFn: ({ pageParam, signal }) =>
      call(accountEndpoints.listUsers, {
        query: { q: search, limit: ADMIN_USER_PAGE_SIZE, cursor: pageParam },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: (previous) => previous,
  });
}

export function useUpdateAdminUser(currentUserId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: AdminUserUpdate }) =>
      call(accountEndpoints.updateUser, { params: { id }, body: changes }),
    onSuccess: (updated) => {
      // Show the change at once in every cached search, then refetch in the background in case
      // it moved the user in or out of a search.
      queryClient.setQueriesData<InfiniteData<AdminUserList>>({ queryKey: usersKey }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                users: page.users.map((user) => (user.id === updated.id ? updated : user)),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: usersKey });
      if (updated.id === currentUserId) void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });
}

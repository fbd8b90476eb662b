import { type AdDefinition, adEndpoints } from "@hearth/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** Admin → Ads (issue 17): the house ads, their figures, and changes to them. */
export const adminAdsQuery = queryOptions({
  queryKey: ["admin", "ads"],
  queryFn: ({ signal }) => call(adEndpoints.list, { signal }),
});

export const adStatsQuery = (id: string) =>
  queryOptions({
    queryKey: ["admin", "ads", id, "stats"],
    queryFn: ({ signal }) => call(adEndpoints.stats, { params: { id }, query: { days: 30 }, signal }),
  });

export function useSaveAd() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AdDefinition }) =>
      id ? call(adEndpoints.update, { params: { id }, body }) : call(adEndpoints.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminAdsQuery.queryKey }),
  });
}

export function useDeleteAd() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(adEndpoints.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminAdsQuery.queryKey }),
  });
}

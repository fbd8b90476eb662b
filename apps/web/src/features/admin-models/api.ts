import {
  type ActiveModelChange,
  type LocalServerChoice,
  type ModelDownload,
  type ModelDownloadRequest,
  modelEndpoints,
} from "@hearth/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { modelsQuery } from "../chat/api.ts";

export const adminModelsKeys = {
  all: ["admin", "models"] as const,
  overview: ["admin", "models", "overview"] as const,
  download: ["admin", "models", "download"] as const,
  localServers: ["admin", "models", "local-servers"] as const,
};

/** Model servers running on this machine, looked for when the page opens or asks again. */
export const localServersQuery = queryOptions({
  queryKey: adminModelsKeys.localServers,
  queryFn: ({ signal }) => call(modelEndpoints.localServers, { signal }),
  staleTime: 10_000,
});

/** Switches chats to a model of a server on this machine. */
export function useUseLocalServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: LocalServerChoice) => call(modelEndpoints.useLocalServer, { body: choice }),
    onSuccess: (overview) => {
      queryClient.setQueryData(adminModelsKeys.overview, overview);
      void queryClient.invalidateQueries({ queryKey: modelsQuery.queryKey });
    },
  });
}

/** How often a running download's progress is asked for. */
export const downloadPollMs = 1_000;
/** How often the page looks again while the active model is loading. */
const loadingPollMs = 2_000;

/** Active model, installed models, catalog and the last download. */
export const adminModelsQuery = queryOptions({
  queryKey: adminModelsKeys.overview,
  queryFn: ({ signal }) => call(modelEndpoints.adminOverview, { signal }),
  // A model that is loading (e.g. just switched to) becomes ready or fails on its own.
  refetchInterval: (query) => (query.state.data?.active.state.status === "degraded" ? loadingPollMs : false),
});

/** The current download (null when none was started), polled every second while it runs. */
export const currentDownloadQuery = queryOptions({
  queryKey: adminModelsKeys.download,
  queryFn: async ({ signal }): Promise<ModelDownload | null> => {
    try {
      return await call(modelEndpoints.currentDownload, { signal });
    } catch (error) {
      if (isApiRequestError(error) && error.status === 404) return null;
      throw error;
    }
  },
  refetchInterval: (query) => (query.state.data?.status === "running" ? downloadPollMs : false),
  refetchIntervalInBackground: true,
});

/**
 * The current download, polled while it runs. When it ends, the overview is fetched again: a
 * finished download is a new installed model.
 */
export function useCurrentDownload() {
  const queryClient = useQueryClient();
  const download = useQuery(currentDownloadQuery);
  const status = download.data?.status;
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current === "running" && status !== "running") {
      void queryClient.invalidateQueries({ queryKey: adminModelsKeys.overview });
    }
    previous.current = status;
  }, [status, queryClient]);
  return download;
}

export function useStartDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ModelDownloadRequest) => call(modelEndpoints.startDownload, { body: request }),
    onSuccess: (state) => {
      queryClient.setQueryData(adminModelsKeys.download, state);
      void queryClient.invalidateQueries({ queryKey: adminModelsKeys.overview });
    },
  });
}

export function useCancelDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(modelEndpoints.cancelDownload, {}),
    onSuccess: (state) => queryClient.setQueryData(adminModelsKeys.download, state),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminModelsKeys.all }),
  });
}

export function useActivateModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ActiveModelChange) => call(modelEndpoints.setActive, { body: change }),
    onSuccess: (overview) => {
      queryClient.setQueryData(adminModelsKeys.overview, overview);
      // Chat screens and the demo notice read the model list.
      void queryClient.invalidateQueries({ queryKey: modelsQuery.queryKey });
    },
  });
}

import { accountEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** Profile settings beyond /api/me (highlights, NSFW, the model key's last 4 and mode, layout). */
export const profileSettingsQuery = queryOptions({
  queryKey: ["profile-settings"],
  queryFn: ({ signal }) => call(accountEndpoints.profileSettings, { signal }),
});

export const sessionsQuery = queryOptions({
  queryKey: ["sessions"],
  queryFn: ({ signal }) => call(accountEndpoints.listSessions, { signal }),
});

export const defaultModelQuery = queryOptions({
  queryKey: ["default-model"],
  queryFn: ({ signal }) => call(accountEndpoints.getDefaultModel, { signal }),
});

import { backupEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { call } from "../../lib/client.ts";

/** Admin → Backups: the schedule, the last backup and those kept on the server (read only). */
export const adminBackupsQuery = queryOptions({
  queryKey: ["admin", "backups"] as const,
  queryFn: ({ signal }) => call(backupEndpoints.adminOverview, { signal }),
  staleTime: 30_000,
});

import { endpoint } from "../endpoint.ts";
import { queueQuery, queueState } from "../queue.ts";

/**
 * The waiting room (apps/server/src/features/waiting-room). Asking is also joining: a member
 * without access is put in line by the first call.
 */
export const queueEndpoints = {
  state: endpoint({
    method: "GET",
    path: "/api/queue",
    summary:
      "The viewer's waiting-room state: waiting (position, estimated time left), access (until 20 minutes idle), refresh or expired; retry_after; a character bypass",
    tag: "Waiting room",
    access: "member",
    query: queueQuery,
    response: queueState,
  }),
} as const;

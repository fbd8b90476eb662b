import { endpoint } from "../endpoint.ts";
import { queueQuery, queueState } from "../queue.ts";

/**
 * The waiting room (apps/server/src/features/waiting-room). Reading changes nothing (a page on
 * another site can make a browser send a GET); joining the line, and keeping a place in it while
 * waiting, is the POST.
 */
export const queueEndpoints = {
  state: endpoint({
    method: "GET",
    path: "/api/queue",
    summary:
      "The viewer's waiting-room state, read only: waiting (position, estimated time left), access (until 20 minutes idle), expired or not_in_line; retry_after; a character bypass",
    tag: "Waiting room",
    access: "member",
    query: queueQuery,
    response: queueState,
  }),
  join: endpoint({
    method: "POST",
    path: "/api/queue",
    summary:
      "Joins the waiting line, or keeps the viewer's place in it (a waiting client sends it every retry_after), and admits while there is room; answers the state",
    tag: "Waiting room",
    access: "member",
    body: queueQuery,
    response: queueState,
  }),
} as const;

import { blockCreatorRequest, blockedCreatorList, blockState } from "../blocking.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * Blocked creators (apps/server/src/features/blocking): a member hides a creator's bots from
 * browse, search, tags, the creator page and recommendations, and cannot chat with them (403
 * `blockedBotCreator`) until they unblock. Members only: guests 403, signed out 401.
 */
export const blockingEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/users/blocked-creators",
    summary: "The creators the viewer blocked, newest first",
    tag: "Blocking",
    access: "member",
    response: blockedCreatorList,
  }),
  block: endpoint({
    method: "POST",
    path: "/api/users/blocked-creators",
    summary: "Block a creator by user id (not oneself: 400; unknown: 404; blocking twice is a no-op)",
    tag: "Blocking",
    access: "member",
    body: blockCreatorRequest,
    response: blockState,
  }),
  unblock: endpoint({
    method: "DELETE",
    path: "/api/users/blocked-creators/{id}",
    summary: "Unblock a creator by user id (unblocking one not blocked is a no-op)",
    tag: "Blocking",
    access: "member",
    params: idParams,
    response: null,
  }),
};

import type { EndpointDef } from "../endpoint.ts";

/** Declared as the routes of apps/server/src/features/chats move onto the contract. */
export const chatEndpoints = {} satisfies Record<string, EndpointDef>;

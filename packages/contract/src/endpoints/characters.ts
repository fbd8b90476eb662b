import type { EndpointDef } from "../endpoint.ts";

/** Declared as the routes of apps/server/src/features/characters move onto the contract. */
export const characterEndpoints = {} satisfies Record<string, EndpointDef>;

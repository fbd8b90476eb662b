import type { EndpointDef } from "../endpoint.ts";

/** Declared as the routes of apps/server/src/features/accounts move onto the contract. */
export const accountEndpoints = {} satisfies Record<string, EndpointDef>;

import type { EndpointDef } from "../endpoint.ts";

/** Declared as the routes of apps/server/src/features/personas move onto the contract. */
export const personaEndpoints = {} satisfies Record<string, EndpointDef>;

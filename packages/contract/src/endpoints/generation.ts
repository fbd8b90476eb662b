import type { EndpointDef } from "../endpoint.ts";

/** Declared as the routes of apps/server/src/features/generation move onto the contract. */
export const generationEndpoints = {} satisfies Record<string, EndpointDef>;

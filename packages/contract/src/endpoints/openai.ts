import type { EndpointDef } from "../endpoint.ts";

/** Declared as the routes of apps/server/src/features/openai move onto the contract. */
export const openAiEndpoints = {} satisfies Record<string, EndpointDef>;

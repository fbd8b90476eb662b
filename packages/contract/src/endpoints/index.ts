import type { EndpointDef } from "../endpoint.ts";
import { modelEndpoints } from "./models.ts";
import { operationsEndpoints } from "./operations.ts";

export { modelEndpoints, operationsEndpoints };

/** Every endpoint Hearth serves, for the OpenAPI document, the route coverage test and the fuzz test. */
export const allEndpoints: readonly EndpointDef[] = [
  ...Object.values(operationsEndpoints),
  ...Object.values(modelEndpoints),
];

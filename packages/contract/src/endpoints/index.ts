import type { EndpointDef } from "../endpoint.ts";
import { accountEndpoints } from "./accounts.ts";
import { characterEndpoints } from "./characters.ts";
import { chatEndpoints } from "./chats.ts";
import { generationEndpoints } from "./generation.ts";
import { modelEndpoints } from "./models.ts";
import { openAiEndpoints } from "./openai.ts";
import { operationsEndpoints } from "./operations.ts";
import { personaEndpoints } from "./personas.ts";

export {
  accountEndpoints,
  characterEndpoints,
  chatEndpoints,
  generationEndpoints,
  modelEndpoints,
  openAiEndpoints,
  operationsEndpoints,
  personaEndpoints,
};

/** Every endpoint Hearth serves, for the OpenAPI document, the route coverage test and the fuzz test. */
export const allEndpoints: readonly EndpointDef[] = [
  operationsEndpoints,
  accountEndpoints,
  characterEndpoints,
  chatEndpoints,
  generationEndpoints,
  personaEndpoints,
  modelEndpoints,
  openAiEndpoints,
].flatMap((group) => Object.values(group) as EndpointDef[]);

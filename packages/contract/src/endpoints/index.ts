import type { EndpointDef } from "../endpoint.ts";
import { accountLifecycleEndpoints } from "./account-lifecycle.ts";
import { accountEndpoints } from "./accounts.ts";
import { blockingEndpoints } from "./blocking.ts";
import { characterEndpoints } from "./characters.ts";
import { chatEndpoints } from "./chats.ts";
import { generationEndpoints } from "./generation.ts";
import { leaderboardEndpoints } from "./leaderboard.ts";
import { modelEndpoints } from "./models.ts";
import { moderationEndpoints } from "./moderation.ts";
import { openAiEndpoints } from "./openai.ts";
import { operationsEndpoints } from "./operations.ts";
import { personaEndpoints } from "./personas.ts";
import { ratingEndpoints } from "./ratings.ts";
import { recommendationEndpoints } from "./recommendations.ts";
import { siteEndpoints } from "./site.ts";

export {
  accountEndpoints,
  accountLifecycleEndpoints,
  blockingEndpoints,
  characterEndpoints,
  chatEndpoints,
  generationEndpoints,
  leaderboardEndpoints,
  modelEndpoints,
  moderationEndpoints,
  openAiEndpoints,
  operationsEndpoints,
  personaEndpoints,
  ratingEndpoints,
  recommendationEndpoints,
  siteEndpoints,
};

/** Every endpoint Hearth serves, for the OpenAPI document, the route coverage test and the fuzz test. */
export const allEndpoints: readonly EndpointDef[] = [
  operationsEndpoints,
  accountEndpoints,
  accountLifecycleEndpoints,
  characterEndpoints,
  chatEndpoints,
  generationEndpoints,
  personaEndpoints,
  modelEndpoints,
  openAiEndpoints,
  moderationEndpoints,
  ratingEndpoints,
  blockingEndpoints,
  leaderboardEndpoints,
  recommendationEndpoints,
  siteEndpoints,
].flatMap((group) => Object.values(group) as EndpointDef[]);

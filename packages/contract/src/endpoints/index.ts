import type { EndpointDef } from "../endpoint.ts";
import { accountLifecycleEndpoints } from "./account-lifecycle.ts";
import { accountTransferEndpoints } from "./account-transfer.ts";
import { accountEndpoints } from "./accounts.ts";
import { adEndpoints } from "./ads.ts";
import { backupEndpoints } from "./backups.ts";
import { billingEndpoints } from "./billing.ts";
import { blockingEndpoints } from "./blocking.ts";
import { characterEndpoints } from "./characters.ts";
import { chatTransferEndpoints } from "./chat-transfer.ts";
import { chatEndpoints } from "./chats.ts";
import { checkoutEndpoints } from "./checkout.ts";
import { generationEndpoints } from "./generation.ts";
import { guestEndpoints } from "./guest.ts";
import { imageTrainingEndpoints } from "./image-training.ts";
import { impersonationEndpoints } from "./impersonation.ts";
import { leaderboardEndpoints } from "./leaderboard.ts";
import { lorebookEndpoints } from "./lorebooks.ts";
import { memoryEndpoints } from "./memories.ts";
import { modelEndpoints } from "./models.ts";
import { moderationEndpoints } from "./moderation.ts";
import { openAiEndpoints } from "./openai.ts";
import { operationsEndpoints } from "./operations.ts";
import { personaEndpoints } from "./personas.ts";
import { pledgeEndpoints } from "./pledges.ts";
import { queueEndpoints } from "./queue.ts";
import { ratingEndpoints } from "./ratings.ts";
import { recommendationEndpoints } from "./recommendations.ts";
import { saleEndpoints } from "./sale.ts";
import { siteEndpoints } from "./site.ts";
import { translationEndpoints } from "./translations.ts";
import { voiceEndpoints } from "./voice.ts";

export {
  accountEndpoints,
  accountLifecycleEndpoints,
  accountTransferEndpoints,
  adEndpoints,
  backupEndpoints,
  billingEndpoints,
  blockingEndpoints,
  characterEndpoints,
  chatEndpoints,
  chatTransferEndpoints,
  checkoutEndpoints,
  generationEndpoints,
  guestEndpoints,
  imageTrainingEndpoints,
  impersonationEndpoints,
  leaderboardEndpoints,
  lorebookEndpoints,
  memoryEndpoints,
  modelEndpoints,
  moderationEndpoints,
  openAiEndpoints,
  operationsEndpoints,
  personaEndpoints,
  pledgeEndpoints,
  queueEndpoints,
  ratingEndpoints,
  recommendationEndpoints,
  saleEndpoints,
  siteEndpoints,
  translationEndpoints,
  voiceEndpoints,
};

/** Every endpoint Hearth serves, for the OpenAPI document, the route coverage test and the fuzz test. */
export const allEndpoints: readonly EndpointDef[] = [
  operationsEndpoints,
  accountEndpoints,
  guestEndpoints,
  accountLifecycleEndpoints,
  characterEndpoints,
  chatEndpoints,
  generationEndpoints,
  personaEndpoints,
  modelEndpoints,
  backupEndpoints,
  openAiEndpoints,
  moderationEndpoints,
  ratingEndpoints,
  blockingEndpoints,
  leaderboardEndpoints,
  recommendationEndpoints,
  siteEndpoints,
  adEndpoints,
  translationEndpoints,
  impersonationEndpoints,
  billingEndpoints,
  checkoutEndpoints,
  saleEndpoints,
  pledgeEndpoints,
  memoryEndpoints,
  lorebookEndpoints,
  queueEndpoints,
  chatTransferEndpoints,
  accountTransferEndpoints,
  voiceEndpoints,
  imageTrainingEndpoints,
].flatMap((group) => Object.values(group) as EndpointDef[]);

import { endpoint, idParams } from "../endpoint.ts";
import { trainingRequest, trainingStatus } from "../image-training.ts";

/**
 * Image training (apps/server/src/features/image-training): I'm All In members (image_training)
 * ask for a bot they may chat with to be trained for images; a background job submits it to the
 * training service and follows it until its LoRA is stored.
 */
export const imageTrainingEndpoints = {
  train: endpoint({
    method: "POST",
    path: "/api/characters/train",
    summary:
      "Queue image training for a bot (image_training; at most 4 requests a day); answers the count of queued training requests",
    tag: "Image training",
    access: "member",
    body: trainingRequest,
    response: trainingStatus,
  }),
  status: endpoint({
    method: "GET",
    path: "/api/characters/{id}/training",
    summary: "A bot's image training state (lora_status, the queue count, this member's requests today)",
    tag: "Image training",
    access: "member",
    params: idParams,
    response: trainingStatus,
  }),
} as const;

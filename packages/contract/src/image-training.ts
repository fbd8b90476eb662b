import { z } from "zod";
import { loraStatus } from "./characters.ts";

/**
 * Per-bot image training (issue 16 item 5; chat-and-characters §2 Chatbot Image Training modal,
 * §3 lora_status, §4 Image training, §7 POST characters/train, §9 up to 4 requests a day).
 */

/** §9: training requests a member may make per day. */
export const TRAINING_DAILY_LIMIT = 4;

/** POST /api/characters/train (§7). */
export const trainingRequest = z.object({
  character_id: z.string().uuid(),
});

/** A bot's image training as a member sees it (GET /api/characters/{id}/training, and POST's answer). */
export const trainingStatus = z.object({
  character_id: z.string(),
  lora_status: loraStatus,
  /** §7: the count of queued training requests on this server (this bot's included while it waits). */
  queued: z.number().int().min(0),
  /** Training requests this member made since midnight UTC, and how many are allowed (§9). */
  requests_today: z.number().int().min(0),
  daily_limit: z.number().int(),
  /** False when this server has no training service: every bot is then ready for images. */
  service: z.boolean(),
});
export type TrainingStatus = z.infer<typeof trainingStatus>;

// Per-bot image training (issue 16 item 5, decision 021): POST /api/characters/train queues a
// request (I'm All In, at most 4 a day), a background job submits it to the training service
// and follows it until the bot's LoRA is stored; image generation asks `loraFor` and
// `readyForImages`.
import { EventEmitter } from "node:events";
import type { FastifyInstance } from "fastify";
import { KohyaTrainingService } from "../../adapters/kohya-training.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../ports/queue.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { TrainingService } from "../../ports/training.ts";
import { installTrainingJob, sweepTraining, type TrainingJobDeps, trainingStep } from "./job.ts";
import { readyLora, releaseOrphanedBots } from "./queries.ts";
import { imageTrainingRoutes } from "./routes.ts";

export { TRAINING_JOB, type TrainingStep } from "./job.ts";

/** A bot's trained LoRA, for the image adapters. */
export interface CharacterLora {
  /** The LoRA's name in prompts and backends' lora folders (`hearth-<character id>`). */
  name: string;
  /** Its `.safetensors` file in the storage port (`storage.get(key)`, `storage.url(key)`). */
  key: string;
  /** The token the bot was captioned with: put it in the prompt to call the bot up. */
  triggerWord: string;
  /** The strength to apply it with (TRAINING_LORA_WEIGHT when it was trained). */
  weight: number;
}

/** The bot's LoRA when its lora_status is ready, else null. */
export async function loraFor(db: Db, characterId: string): Promise<CharacterLora | null> {
  const row = await readyLora(db, characterId);
  return row
    ? { name: `hearth-${characterId}`, key: row.key, triggerWord: row.triggerWord, weight: row.weight }
    : null;
}

/** Whether this server has a training service (TRAINING_BASE_URL). */
export const trainingConfigured = (config: Pick<Config, "training">): boolean => config.training !== null;

/**
 * The rule agreed with image generation: with no training service every bot is ready for images;
 * with one, a bot is ready only when its lora_status is ready.
 */
export function readyForImages(config: Pick<Config, "training">, loraStatus: string): boolean {
  return !trainingConfigured(config) || loraStatus === "ready";
}

/** The training service the configuration names, or null. */
export function openTrainingService(config: Pick<Config, "training">): TrainingService | null {
  const t = config.training;
  return t ? new KohyaTrainingService({ baseUrl: t.baseUrl, apiKey: t.apiKey }) : null;
}

export interface ImageTraining {
  /** `step` events ({ requestId, status }) after each background step. */
  events: EventEmitter;
  /** Queues the steps due at `now` (the periodic sweep; tests pass a later time). */
  sweep: (now?: Date) => Promise<number>;
  /** Releases bots left pending without a request (hourly; tests call it). */
  upkeep: () => Promise<number>;
  /** Runs one request's step here and now (tests). */
  step: (requestId: string) => ReturnType<typeof trainingStep>;
  stop: () => void;
}

export async function installImageTraining(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    auth: Parameters<typeof imageTrainingRoutes>[1]["auth"];
    storage: FileStorage;
    queue: JobQueue;
    service?: TrainingService | null;
  },
): Promise<ImageTraining> {
  const t = deps.config.training;
  const service = deps.service === undefined ? openTrainingService(deps.config) : deps.service;
  const events = new EventEmitter();
  await app.register(imageTrainingRoutes, {
    db: deps.db,
    auth: deps.auth,
    queue: deps.queue,
    training: t && service ? { loraWeight: t.loraWeight, pollMs: t.pollMs } : null,
  });
  if (!t || !service) {
    return {
      events,
      sweep: async () => 0,
      upkeep: async () => 0,
      step: async (requestId) => ({ requestId, status: "gone" }),
      stop: () => {},
    };
  }
  const jobDeps: TrainingJobDeps = {
    db: deps.db,
    storage: deps.storage,
    service,
    queue: deps.queue,
    steps: t.steps,
    pollMs: t.pollMs,
    log: (error, what) => app.log.error({ err: error }, what),
    events,
  };
  const stop = installTrainingJob(jobDeps);
  return {
    events,
    sweep: (now) => sweepTraining(jobDeps, now),
    upkeep: () => releaseOrphanedBots(deps.db),
    step: (id) => trainingStep(jobDeps, id),
    stop,
  };
}

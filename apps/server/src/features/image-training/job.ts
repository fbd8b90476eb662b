import type { EventEmitter } from "node:events";
import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../ports/queue.ts";
import type { FileStorage } from "../../ports/storage.ts";
import {
  type TrainingImage,
  TrainingJobGone,
  TrainingRejected,
  type TrainingService,
} from "../../ports/training.ts";
import {
  characterForTraining,
  claimDue,
  findRequest,
  finishRequest,
  markSubmitted,
  pollLater,
  releaseOrphanedBots,
} from "./queries.ts";

/**
 * The background side of image training (§4: not trained → pending → ready): the `image-training`
 * job takes one step for one request, and a sweep every poll interval queues the step for each
 * unfinished request that is due. A step submits a queued request to the training service, or
 * polls a submitted one; a succeeded job's LoRA is stored through the storage port and the bot
 * becomes ready, a failed one makes it failed (a member may ask again). A run takes up to ten
 * minutes or a few days (§9), so nothing waits on it: the database holds where each request is,
 * and any process (after a restart too) picks it up at its next poll.
 */
export const TRAINING_JOB = "image-training";
/** How often bots left pending by a deleted request are released (a scan of pending bots). */
const ORPHAN_CHECK_MS = 3_600_000;

export interface TrainingJobDeps {
  db: Db;
  storage: FileStorage;
  service: TrainingService;
  queue: JobQueue;
  steps: number;
  pollMs: number;
  log: (error: unknown, what: string) => void;
  /** Emits `step` ({ requestId, status }) after each step, for whoever watches (tests, metrics). */
  events: EventEmitter;
}

export interface TrainingStep {
  requestId: string;
  status: "queued" | "submitted" | "succeeded" | "failed" | "gone";
}

/** The LoRA's storage key: one per request, since a key names immutable content. */
export const loraKeyOf = (characterId: string, requestId: string) =>
  `loras/${characterId}/${requestId}.safetensors`;

/** The bot's reference images: its avatar (the 512 px square) for now; the port takes any number. */
async function referenceImages(
  storage: FileStorage,
  bot: { name: string; avatarKey: string | null },
  triggerWord: string,
): Promise<TrainingImage[]> {
  if (!bot.avatarKey) return [];
  const avatar = await storage.get(`${bot.avatarKey}-512.webp`);
  if (!avatar) return [];
  return [
    {
      filename: "avatar.webp",
      contentType: avatar.contentType,
      data: avatar.body,
      caption: `${triggerWord}, ${bot.name}`,
    },
  ];
}

const later = (deps: TrainingJobDeps) => new Date(Date.now() + deps.pollMs);

/** One step of one request's training; answers where it stands after it. */
export async function trainingStep(deps: TrainingJobDeps, requestId: string): Promise<TrainingStep> {
  const { db } = deps;
  const request = await findRequest(db, requestId);
  if (!request) return { requestId, status: "gone" };
  if (request.status === "succeeded" || request.status === "failed")
    return { requestId, status: request.status };
  const fail = async (error: string): Promise<TrainingStep> => {
    await finishRequest(db, requestId, { status: "failed", error });
    return { requestId, status: "failed" };
  };

  if (request.status === "queued" || !request.jobId) {
    const bot = await characterForTraining(db, request.characterId);
    if (!bot) return fail("The chatbot was deleted.");
    const images = await referenceImages(deps.storage, bot, request.triggerWord);
    if (images.length === 0) return fail("The chatbot has no avatar to learn from.");
    try {
      const { jobId } = await deps.service.submit({
        name: `hearth-${request.characterId}`,
        triggerWord: request.triggerWord,
        steps: deps.steps,
        images,
      });
      await markSubmitted(db, requestId, jobId, later(deps));
      return { requestId, status: "submitted" };
    } catch (error) {
      if (error instanceof TrainingRejected) return fail(error.message);
      throw error;
    }
  }

  try {
    const state = await deps.service.status(request.jobId);
    if (state.state === "failed") return fail(state.error);
    if (state.state !== "succeeded") {
      await pollLater(db, requestId, later(deps));
      return { requestId, status: "submitted" };
    }
    const lora = await deps.service.result(request.jobId);
    const key = loraKeyOf(request.characterId, requestId);
    await deps.storage.put(key, lora, "application/octet-stream");
    // Another process finishing it first is fine: the file under this key is the same job's.
    await finishRequest(db, requestId, { status: "succeeded", loraKey: key });
    return { requestId, status: "succeeded" };
  } catch (error) {
    if (error instanceof TrainingJobGone) return fail("The training service no longer knows this job.");
    throw error;
  }
}

/**
 * Queues the step of one request. Whoever queues it holds the request's lease (a new request's
 * first poll is a lease ahead; the sweep moves it ahead when it claims), so no job id is needed
 * to keep steps apart: one with the request's id would be dropped while the last step's job
 * is still finishing.
 */
export function queueTrainingStep(queue: JobQueue, requestId: string) {
  return queue.enqueue(TRAINING_JOB, { requestId });
}

/** Queues a step for each unfinished request due a look at `now`; answers how many. */
export async function sweepTraining(deps: TrainingJobDeps, now = new Date()): Promise<number> {
  const due = await claimDue(deps.db, now, deps.pollMs);
  for (const id of due) await queueTrainingStep(deps.queue, id);
  return due.length;
}

/** Registers the job's worker and starts the sweep; answers a function that stops the sweep. */
export function installTrainingJob(deps: TrainingJobDeps): () => void {
  deps.queue.process<{ requestId: string }>(
    TRAINING_JOB,
    async ({ requestId }) => {
      try {
        const step = await trainingStep(deps, requestId);
        deps.events.emit("step", step);
      } catch (error) {
        // A service that cannot be reached: the request stays where it is, looked at again next poll.
        deps.log(error, "image training step failed");
        await pollLater(deps.db, requestId, later(deps)).catch(() => {});
        deps.events.emit("step", { requestId, status: "error" });
      }
    },
    { concurrency: 2 },
  );
  const sweep = () => sweepTraining(deps).catch((error) => deps.log(error, "image training sweep failed"));
  const timer = setInterval(sweep, deps.pollMs);
  timer.unref();
  const release = () =>
    releaseOrphanedBots(deps.db).catch((error) => deps.log(error, "image training upkeep failed"));
  void release();
  const upkeep = setInterval(release, ORPHAN_CHECK_MS);
  upkeep.unref();
  return () => {
    clearInterval(timer);
    clearInterval(upkeep);
  };
}

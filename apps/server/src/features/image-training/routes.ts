import { imageTrainingEndpoints, TRAINING_DAILY_LIMIT, type TrainingStatus } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { JobQueue } from "../../ports/queue.ts";
import { type Auth, getViewer } from "../accounts/index.ts";
import { chattableCharacter } from "../characters/index.ts";
import { queueTrainingStep } from "./job.ts";
import { assertCanReadTraining, assertCanTrain, noTrainingService } from "./policy.ts";
import { dayStart, insertRequest, openRequestCount, requestsSince } from "./queries.ts";

export interface TrainingRouteDeps {
  db: Db;
  auth: Auth;
  queue: JobQueue;
  /** Null when this server has no training service. */
  training: { loraWeight: number; pollMs: number } | null;
  now?: () => Date;
}

/** The token a bot's LoRA is trained under: rare enough to mean only this bot. */
export const triggerWordOf = (characterId: string) => `hrth${characterId.replaceAll("-", "").slice(0, 8)}`;

const DAILY_LIMIT_MESSAGE = `You can ask for image training ${TRAINING_DAILY_LIMIT} times a day. Please try again tomorrow.`;

/** POST /api/characters/train (§7) and the dialog's GET of a bot's training state. */
export async function imageTrainingRoutes(app: FastifyInstance, deps: TrainingRouteDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const statusOf = async (
    characterId: string,
    loraStatus: TrainingStatus["lora_status"],
    userId: string,
  ): Promise<TrainingStatus> => ({
    character_id: characterId,
    lora_status: loraStatus,
    queued: await openRequestCount(db),
    requests_today: await requestsSince(db, userId, dayStart(now())),
    daily_limit: TRAINING_DAILY_LIMIT,
    service: deps.training !== null,
  });

  route(app, imageTrainingEndpoints.status, async ({ req, params }) => {
    const viewer = assertCanReadTraining(await getViewer(deps.auth, req));
    const bot = await chattableCharacter(db, viewer, params.id);
    return statusOf(bot.id, bot.loraStatus, viewer.id);
  });

  route(app, imageTrainingEndpoints.train, async ({ req, body }) => {
    const viewer = assertCanTrain(await getViewer(deps.auth, req));
    const bot = await chattableCharacter(db, viewer, body.character_id);
    if (!deps.training) throw noTrainingService();
    // Already training: the queue again, no second request.
    if (bot.loraStatus === "pending") return statusOf(bot.id, "pending", viewer.id);
    if (bot.loraStatus === "ready") {
      throw new HttpError(409, "conflict", "This chatbot is already trained for images.");
    }
    if (!bot.avatarKey) {
      throw new HttpError(
        400,
        "invalidRequest",
        "This chatbot needs an avatar before it can be trained for images.",
      );
    }
    const outcome = await insertRequest(db, {
      characterId: bot.id,
      userId: viewer.id,
      triggerWord: triggerWordOf(bot.id),
      weight: deps.training.loraWeight,
      since: dayStart(now()),
      limit: TRAINING_DAILY_LIMIT,
      firstPollAt: new Date(now().getTime() + deps.training.pollMs),
    });
    if (outcome.kind === "limit") throw new HttpError(429, "limitReached", DAILY_LIMIT_MESSAGE);
    if (outcome.kind === "queued") await queueTrainingStep(deps.queue, outcome.id);
    // "busy": another member's request moved the bot first; answer where it stands now.
    const current =
      outcome.kind === "busy" ? (await chattableCharacter(db, viewer, bot.id)).loraStatus : "pending";
    if (current === "ready")
      throw new HttpError(409, "conflict", "This chatbot is already trained for images.");
    return statusOf(bot.id, current, viewer.id);
  });
}

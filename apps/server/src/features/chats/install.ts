import type { FastifyInstance } from "fastify";
import type { EmbeddingBackend } from "../../ports/embeddings.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/index.ts";
import { afterReply, installAutoMemory } from "../memories/index.ts";
import { chatEditRoutes } from "./edit-routes.ts";
import type { AcceptContext } from "./generation/accept-queries.ts";
import { runImageGeneration } from "./generation/image-worker.ts";
import { imageCapacity, isImageGeneration } from "./generation/images.ts";
import { memberBackendChooser } from "./generation/member-model.ts";
import { recoverOrphans, startUpkeep } from "./generation/recovery.ts";
import { generationRoutes } from "./generation/routes.ts";
import { LineDispatcher, startLineWatch, takeWakeUp, workerConcurrency } from "./generation/scheduler.ts";
import { repliesWaitingLongerThan } from "./generation/scheduler-queries.ts";
import { capacitiesOf, MEMBER_KEY_CAPACITY, WORKER_ID } from "./generation/scheduling.ts";
import { GENERATE_JOB, type GenerationDeps } from "./generation/service.ts";
import { runGeneration, type WorkerDeps } from "./generation/worker.ts";
import { chatRatingRoutes } from "./rating-routes.ts";
import { chatRoutes } from "./routes.ts";
import type { GenerationRow } from "./schema.ts";
import { ChatService } from "./service.ts";

/**
 * Chat and generation: routes, the generation worker of this process, the upkeep that recovers
 * generations cut off by a crash, and automatic memory, which replies queue and which gives way
 * to them. Answers `stop` (the upkeep, the memory backfill, the line watch) and `drain` (the
 * line for the model claims nothing more; running replies get `deadlineMs` to finish, then are
 * closed as interrupted) with `interruptNow`, which cuts a drain's wait short.
 */
export async function installChat(
  app: FastifyInstance,
  deps: GenerationDeps & { auth: Auth; storage: FileStorage; memoryEmbedder?: EmbeddingBackend | null },
): Promise<ChatLifecycle> {
  const { db, bus, queue } = deps;
  // An in-process queue lost its jobs with the last process: every running reply is an orphan
  // (replies waiting in line stay there: the line watch wakes this process for them).
  const staleMs = deps.config.workerStaleS * 1000;
  await recoverOrphans(db, bus, { all: queue.driver === "in-process", staleMs });
  const chats = new ChatService({ db, storage: deps.storage, edition: deps.config.edition });
  await app.register(chatRoutes, { db, auth: deps.auth, chats, edition: deps.config.edition });
  await app.register(chatEditRoutes, { db, auth: deps.auth, chats, imageModerator: deps.images?.moderator });
  await app.register(chatRatingRoutes, { db, auth: deps.auth });
  const memberBackend = memberBackendChooser(deps);
  // What this process can serve, read at each claim: Admin → Models may switch models at runtime.
  const capacities = () => [
    ...capacitiesOf(deps.inference.registry.entries, deps.config.llm.sequences),
    MEMBER_KEY_CAPACITY,
    ...(deps.images?.backend ? [imageCapacity(deps.images)] : []),
  ];
  const run = (generation: GenerationRow, interrupt: AbortSignal, handoff?: AcceptContext) => {
    const workerDeps: WorkerDeps = {
      db,
      bus,
      inference: deps.inference,
      memorySite: deps.config,
      logFailure: (context, what) => app.log.error(context, what),
      onReplyDone: (conversationId, permissions) =>
        afterReply({ db, queue, site: deps.config }, conversationId, permissions),
      backendFor: memberBackend,
      memoryEmbedder: deps.memoryEmbedder,
      heartbeatMs: staleMs / 4,
    };
    // A picture waits in the same line, for the image server's slots (generation/images.ts).
    if (deps.images && isImageGeneration(generation.capacityKey))
      return runImageGeneration({ ...workerDeps, images: deps.images }, generation, interrupt);
    return runGeneration(workerDeps, generation, interrupt, handoff);
  };
  const line = new LineDispatcher<AcceptContext>({
    db,
    workerId: WORKER_ID,
    capacities,
    concurrency: workerConcurrency(capacities()),
    run,
    log: (err) => app.log.error({ err }, "the line for the model failed to hand out replies"),
  });
  await app.register(generationRoutes, {
    ...deps,
    // An api process only enqueues; the others wake their own line at once, and enqueue only
    // what it did not take.
    wakeHere: deps.config.role === "api" ? undefined : (id, handoff) => line.claimHere(id, handoff),
    logWakeFailure: (err) => app.log.error({ err }, "could not queue a reply's wake-up"),
  });
  // A few wake-ups at once share one claim pass; while this process is full they wait, so other
  // processes take the rest.
  queue.process(GENERATE_JOB, takeWakeUp(line, queue, GENERATE_JOB), { concurrency: 4 });
  const stopLineWatch = startLineWatch(db, queue, GENERATE_JOB, (err) =>
    app.log.error({ err }, "could not look for replies left in line"),
  );
  const stopMemory = installAutoMemory({
    db,
    queue,
    bus,
    site: deps.config,
    backend: () => deps.inference.backend(),
    // Replies in the database's line, not queue jobs: a job is only a wake-up (scheduler.ts).
    repliesWaiting: () => repliesWaitingLongerThan(db, 0).then((waiting) => (waiting ? 1 : 0)),
    log: (err, what) => app.log.error({ err }, what),
  });
  const stopUpkeep = startUpkeep(db, bus, staleMs, (err) => app.log.error({ err }, "chat upkeep failed"));
  return {
    stop() {
      stopUpkeep();
      stopMemory();
      stopLineWatch();
    },
    async drain(deadlineMs) {
      // Wake-ups go to the other processes from now on, not to a line that claims nothing.
      await queue
        .pause(GENERATE_JOB)
        .catch((err) => app.log.error({ err }, "could not stop taking wake-ups while draining"));
      return line.drain(deadlineMs);
    },
    interruptNow: () => line.interruptNow(),
  };
}

export interface ChatLifecycle {
  stop(): void;
  drain(deadlineMs: number): Promise<{ running: number; interrupted: number }>;
  interruptNow(): void;
}

import type { FastifyInstance } from "fastify";
import type { EmbeddingBackend } from "../../ports/embeddings.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/index.ts";
import { countCharacterMessage } from "../characters/index.ts";
import { afterReply, installAutoMemory } from "../memories/index.ts";
import { chatEditRoutes } from "./edit-routes.ts";
import { memberBackendChooser } from "./generation/member-model.ts";
import { recoverOrphans, startUpkeep } from "./generation/recovery.ts";
import { generationRoutes } from "./generation/routes.ts";
import { GENERATE_JOB, type GenerationDeps } from "./generation/service.ts";
import { runGeneration } from "./generation/worker.ts";
import { chatRatingRoutes } from "./rating-routes.ts";
import { chatRoutes } from "./routes.ts";
import { ChatService } from "./service.ts";

/**
 * Chat and generation: routes, the generation worker of this process, the upkeep that recovers
 * generations cut off by a crash, and automatic memory, which replies queue and which gives way
 * to them. Answers a function that stops the upkeep and the memory backfill.
 */
export async function installChat(
  app: FastifyInstance,
  deps: GenerationDeps & { auth: Auth; storage: FileStorage; memoryEmbedder?: EmbeddingBackend | null },
): Promise<() => void> {
  const { db, bus, queue } = deps;
  // An in-process queue lost its jobs with the last process: everything unfinished is an orphan.
  await recoverOrphans(db, bus, { all: queue.driver === "in-process" });
  const chats = new ChatService({ db, storage: deps.storage, edition: deps.config.edition });
  await app.register(chatRoutes, { db, auth: deps.auth, chats, edition: deps.config.edition });
  await app.register(chatEditRoutes, { db, auth: deps.auth, chats });
  await app.register(chatRatingRoutes, { db, auth: deps.auth });
  await app.register(generationRoutes, deps);
  const memberBackend = memberBackendChooser({ ...deps, jobName: GENERATE_JOB });
  queue.process<{ generationId: string }>(
    GENERATE_JOB,
    ({ generationId }) =>
      runGeneration(
        {
          db,
          bus,
          inference: deps.inference,
          memorySite: deps.config,
          logFailure: (context, what) => app.log.error(context, what),
          onReplyStored: (characterId) => countCharacterMessage(db, characterId),
          onReplyDone: (conversationId, permissions) =>
            afterReply({ db, queue, site: deps.config }, conversationId, permissions),
          backendFor: memberBackend,
          memoryEmbedder: deps.memoryEmbedder,
        },
        generationId,
      ),
    { concurrency: deps.config.llm.sequences },
  );
  const stopMemory = installAutoMemory({
    db,
    queue,
    bus,
    site: deps.config,
    backend: () => deps.inference.backend(),
    repliesWaiting: () => queue.waitingCount(GENERATE_JOB),
    log: (err, what) => app.log.error({ err }, what),
  });
  const stopUpkeep = startUpkeep(db, bus, (err) => app.log.error({ err }, "chat upkeep failed"));
  return () => {
    stopUpkeep();
    stopMemory();
  };
}

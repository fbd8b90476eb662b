import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import { BullJobQueue } from "./adapters/bullmq-queue.ts";
import { MemoryEventBus } from "./adapters/memory-bus.ts";
import { MemoryJobQueue } from "./adapters/memory-queue.ts";
import { RedisEventBus } from "./adapters/redis-bus.ts";
import type { Config } from "./config.ts";
import { type Database, databaseTarget, openDatabase } from "./db/client.ts";
import { type Auth, createAuth } from "./features/accounts/auth.ts";
import { authRoutes } from "./features/accounts/auth-routes.ts";
import { accountRoutes } from "./features/accounts/routes.ts";
import { healthRoutes } from "./features/health/routes.ts";
import { openAiRoutes } from "./features/inference/openai-routes.ts";
import { loadRegistry } from "./features/inference/registry.ts";
import { modelRoutes } from "./features/inference/routes.ts";
import { InferenceService } from "./features/inference/service.ts";
import { installErrorHandling } from "./http/errors.ts";
import { installMetrics } from "./http/metrics.ts";
import { serveWeb } from "./http/web.ts";
import { loggerOptions } from "./logger.ts";
import type { EventBus } from "./ports/bus.ts";
import type { JobQueue } from "./ports/queue.ts";

/** Everything one Hearth process holds: the composition root's result. */
export interface Hearth {
  config: Config;
  app: FastifyInstance;
  database: Database;
  auth: Auth;
  queue: JobQueue;
  bus: EventBus;
  inference: InferenceService;
  close(): Promise<void>;
}

export interface HearthOverrides {
  database?: Database;
  /** Key prefix in Redis, so parallel test runs do not share queues. */
  redisPrefix?: string;
}

/** Opens the adapters the configuration names, migrates, and builds the HTTP app. */
export async function createHearth(config: Config, overrides: HearthOverrides = {}): Promise<Hearth> {
  const database = overrides.database ?? (await openDatabase(databaseTarget(config)));
  await database.migrate();
  const prefix = overrides.redisPrefix ?? "hearth";
  const queue: JobQueue = config.redisUrl ? new BullJobQueue(config.redisUrl, prefix) : new MemoryJobQueue();
  const bus: EventBus = config.redisUrl ? new RedisEventBus(config.redisUrl, prefix) : new MemoryEventBus();
  const auth = createAuth(config, database.db);
  const inference = new InferenceService(config, loadRegistry(config));

  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Generation streams stay open; do not let keep-alive defaults cut them.
    requestTimeout: 0,
  });
  installErrorHandling(app);
  installMetrics(app);
  await app.register(cookie);
  await app.register(rateLimit, { max: 600, timeWindow: "1 minute" });
  await app.register(authRoutes, { auth });
  await app.register(accountRoutes, { config, db: database.db, auth });
  await app.register(modelRoutes, { auth, inference });
  await app.register(openAiRoutes, { inference, apiKey: config.apiKey });
  await app.register(healthRoutes, {
    version: config.version,
    database,
    queue,
    bus,
    modelState: () => inference.state(),
  });
  await serveWeb(app, config.webDist);

  let closed = false;
  return {
    config,
    app,
    database,
    auth,
    queue,
    bus,
    inference,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await inference.close();
      await queue.close();
      await bus.close();
      if (!overrides.database) await database.close();
    },
  };
}

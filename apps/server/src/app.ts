import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import type { ApiError } from "@hearth/contract";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { BullJobQueue } from "./adapters/bullmq-queue.ts";
import { LlamaEmbeddingBackend } from "./adapters/llama-embeddings.ts";
import { LocalFileStorage } from "./adapters/local-storage.ts";
import { MemoryEventBus } from "./adapters/memory-bus.ts";
import { MemoryJobQueue } from "./adapters/memory-queue.ts";
import { OpenAiEmbeddingBackend } from "./adapters/openai-embeddings.ts";
import { RedisEventBus } from "./adapters/redis-bus.ts";
import { openSharedRedis } from "./adapters/redis-client.ts";
import type { RedisTarget } from "./adapters/redis-connect.ts";
import { S3FileStorage } from "./adapters/s3-storage.ts";
import { SmtpMailer } from "./adapters/smtp-mail.ts";
import type { Config } from "./config.ts";
import { type Database, databaseTarget, openDatabase } from "./db/client.ts";
import { accountTransferRoutes } from "./features/account-transfer/index.ts";
import {
  type Auth,
  accountLifecycleRoutes,
  accountRoutes,
  authRoutes,
  createAuth,
  impersonationRoutes,
  refuseRestrictedAccounts,
  refuseWritesWhileImpersonating,
} from "./features/accounts/index.ts";
import { installAds } from "./features/ads/index.ts";
import { type Backups, installBackups } from "./features/backups/index.ts";
import { installBilling } from "./features/billing/index.ts";
import { installBlocking } from "./features/blocking/index.ts";
import {
  CharacterService,
  characterRoutes,
  estimateTokens,
  exportCard,
  modelTokenCounter,
  parseCard,
} from "./features/characters/index.ts";
import { ChatTransferService, chatTransferRoutes } from "./features/chat-transfer/index.ts";
import { installChat, lineGauges, openImageServices, promptCostOf } from "./features/chats/index.ts";
import { healthRoutes } from "./features/health/index.ts";
import {
  type ImageTraining,
  installImageTraining,
  loraFor,
  readyForImages,
} from "./features/image-training/index.ts";
import {
  BUNDLED_MODEL_PATH,
  InferenceService,
  loadRegistry,
  modelRoutes,
  openAiRoutes,
  resolveModelChoice,
} from "./features/inference/index.ts";
import { installLeaderboard } from "./features/leaderboard/index.ts";
import { lorebookRoutes } from "./features/lorebooks/index.ts";
import { enableMemoryVectors, memoryRoutes } from "./features/memories/index.ts";
import { adminModelRoutes } from "./features/models/index.ts";
import { insertAudit, installModeration, moderationHooks } from "./features/moderation/index.ts";
import { personaRoutes } from "./features/personas/index.ts";
import { installPledges, pledgeTierOf } from "./features/pledges/index.ts";
import { installRatings, ratingsOnAccountDeletion } from "./features/ratings/index.ts";
import { installRecommendations } from "./features/recommendations/index.ts";
import { activeOffer, installSite, readSale } from "./features/site/index.ts";
import { installVoice } from "./features/voice/index.ts";
import { installWaitingRoom, roomGauges } from "./features/waiting-room/index.ts";
import { installJsonBodyTypes } from "./http/body-types.ts";
import { installErrorHandling } from "./http/errors.ts";
import { installHostCheck } from "./http/host-check.ts";
import { installInputHygiene } from "./http/input-hygiene.ts";
import { addGauges, installMetrics } from "./http/metrics.ts";
import { installOriginCheck } from "./http/origin-check.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { serveWeb } from "./http/web.ts";
import { loggerOptions, RequestLogLines } from "./logger.ts";
import type { EventBus } from "./ports/bus.ts";
import type { EmbeddingBackend } from "./ports/embeddings.ts";
import type { JobQueue } from "./ports/queue.ts";
import type { FileStorage } from "./ports/storage.ts";
import { enqueueOnly, serveOnlyProbes } from "./roles.ts";

/** Everything one Hearth process holds: the composition root's result. */
export interface Hearth {
  config: Config;
  app: FastifyInstance;
  database: Database;
  auth: Auth;
  queue: JobQueue;
  bus: EventBus;
  inference: InferenceService;
  storage: FileStorage;
  characters: CharacterService;
  backups: Backups;
  /** Per-bot image training: its job's step events and sweep (features/image-training). */
  imageTraining: ImageTraining;
  /** Every route registered, as "METHOD /path" (fastify's `:name` syntax), for the coverage test. */
  routes: string[];
  /**
   * Closes everything. With `drainMs` (SIGTERM, main.ts) it drains first: no new connections or
   * claims, running replies get `drainMs` to finish (open streams keep receiving), those left are
   * closed as interrupted with their text kept.
   */
  close(opts?: { drainMs?: number }): Promise<void>;
  /** Cuts a drain's wait short: running replies are closed as interrupted now (a second signal). */
  interruptReplies(): void;
}

export interface HearthOverrides {
  database?: Database;
  /** Key prefix in Redis, so parallel test runs do not share queues (else HEARTH_REDIS_PREFIX). */
  redisPrefix?: string;
  /** false: no backup control socket even on the embedded database (a second Hearth on one data directory in tests). */
  backupControl?: boolean;
}

/**
 * The embedding model memories are recalled with, when one is configured and pgvector is there
 * to keep the vectors (decision 014); else null, and memories are recalled by keywords. A model
 * that fails to load is reported, not fatal: chat goes on without vectors.
 */
async function openMemoryEmbedder(
  config: Config,
  db: Database["db"],
  log: { warn: (msg: string) => void; error: (obj: unknown, msg: string) => void },
): Promise<EmbeddingBackend | null> {
  const wanted = config.embeddings;
  if (!wanted) return null;
  let embedder: EmbeddingBackend;
  try {
    embedder = wanted.baseUrl
      ? new OpenAiEmbeddingBackend({ baseUrl: wanted.baseUrl, apiKey: wanted.apiKey, model: wanted.model })
      : await LlamaEmbeddingBackend.load({
          modelPath: wanted.model === "bundled" ? BUNDLED_MODEL_PATH : wanted.model,
          threads: 1,
        });
  } catch (err) {
    log.error({ err }, "the embedding model did not load; memories are recalled by keywords");
    return null;
  }
  if (await enableMemoryVectors(db)) return embedder;
  log.warn("pgvector is not installed on this PostgreSQL; memories are recalled by keywords");
  await embedder.close();
  return null;
}

/** Opens the adapters the configuration names, migrates, and builds the HTTP app. */
export async function createHearth(config: Config, overrides: HearthOverrides = {}): Promise<Hearth> {
  const database = overrides.database ?? (await openDatabase(databaseTarget(config)));
  await database.migrate();
  const prefix = overrides.redisPrefix ?? config.redisPrefix;
  const redis: RedisTarget | null = config.redisUrl
    ? { url: config.redisUrl, cluster: config.redisCluster }
    : null;
  const queue: JobQueue = redis ? new BullJobQueue(redis, prefix) : new MemoryJobQueue();
  const bus: EventBus = redis ? new RedisEventBus(redis, prefix) : new MemoryEventBus();
  // An api process only enqueues: its features' workers are not registered (roles.ts).
  const featureQueue = config.role === "api" ? enqueueOnly(queue) : queue;
  // Rate-limit counters in Redis, so a client spread over processes has one allowance.
  const sharedRedis = redis && config.rateLimitPerMinute > 0 ? openSharedRedis(redis) : null;
  const mailer = config.mail ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : null;
  // The first-administrator rule's notices go to the server's log, opened below.
  const auth = createAuth(config, database.db, mailer, { warn: (fields, msg) => app.log.warn(fields, msg) });
  const inference = new InferenceService(config, loadRegistry(config));
  const storage = openFileStorage(config);
  const characters = new CharacterService({
    db: database.db,
    storage,
    countTokens: modelTokenCounter(inference),
    reviewPublicBots: config.reviewPublicBots,
    moderation: moderationHooks,
  });

  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    logController: new RequestLogLines(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Generation streams stay open; do not let keep-alive defaults cut them.
    requestTimeout: 0,
    // Open event streams must not hold up a shutdown; clients resume them elsewhere.
    forceCloseConnections: true,
    // The router's own refusals (a broken %-escape, an over-long path segment) in the contract's shape.
    frameworkErrors: (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 400;
      const body: ApiError = {
        code: "invalidRequest",
        message: "The address is not valid: a part of it is malformed or too long.",
      };
      void reply.status(status >= 400 && status < 500 ? status : 400).send(body);
    },
  });
  const memoryEmbedder = await openMemoryEmbedder(config, database.db, app.log);
  const routes: string[] = [];
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) routes.push(`${method} ${r.url}`);
  });
  installErrorHandling(app);
  if (config.role === "worker") serveOnlyProbes(app);
  // Headers first, so even a refused request's answer carries them; then refuse names Hearth does
  // not answer to (DNS rebinding) and cross-site writes.
  installSecurityHeaders(app, config);
  installHostCheck(app, config);
  installOriginCheck(app, config);
  installJsonBodyTypes(app);
  installInputHygiene(app);
  const metrics = installMetrics(app, config);
  await app.register(cookie);
  // An administrator viewing as a user changes nothing: one hook, before every route's body is read.
  refuseWritesWhileImpersonating(app, auth);
  // A restricted account reaches only its restriction page's data: one rule, before every route.
  refuseRestrictedAccounts(app, auth);
  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: "1 minute",
      // Only API calls count: a page load fetches dozens of static files.
      allowList: (req) => !req.url.startsWith("/api/") && !req.url.startsWith("/v1/"),
      ...(sharedRedis
        ? { redis: sharedRedis.client, nameSpace: `${prefix}:rate-limit:`, skipOnError: true }
        : {}),
    });
  }
  await app.register(authRoutes, {
    auth,
    db: database.db,
    guestSignInsPerDay: config.guestSignInsPerDay,
    signUpsPerDay: config.signUpsPerDay,
    signInsPerMinute: config.signInsPerMinute,
    trustProxy: config.trustProxy,
    mail: mailer ? { mailer, brand: config.brand.name, publicUrl: config.publicUrl } : null,
  });
  await app.register(accountRoutes, {
    config,
    db: database.db,
    auth,
    // A default model is one the registry would let this viewer chat with.
    models: { mayChoose: (viewer, id) => resolveModelChoice(inference.registry, viewer, id).id === id },
    storage,
  });
  await app.register(impersonationRoutes, {
    db: database.db,
    auth,
    audit: (entry) => insertAudit(database.db, entry),
  });
  const sale = readSale(config);
  const billing = await installBilling(app, {
    config,
    db: database.db,
    auth,
    offers: (offerId, now) => activeOffer(sale, offerId, now),
    // A linked pledge's tier outlasts a subscription that ends.
    otherTier: pledgeTierOf,
  });
  await app.register(accountLifecycleRoutes, {
    config,
    db: database.db,
    auth,
    storage,
    deletionHooks: [ratingsOnAccountDeletion, billing.onAccountDeletion],
  });
  await app.register(characterRoutes, {
    config,
    db: database.db,
    auth,
    storage,
    service: characters,
    promptCost: (fields) => promptCostOf(inference, fields),
    cards: { parse: parseCard, export: exportCard },
  });
  await app.register(personaRoutes, { db: database.db, auth, storage, limits: config.personaLimits });
  await app.register(memoryRoutes, { db: database.db, auth, site: config });
  await app.register(lorebookRoutes, {
    db: database.db,
    auth,
    readCard: parseCard,
    // The test box counts with the default model when it is ready (or soon), else estimates.
    tokenCounter: async () => (await inference.readyDefault())?.tokenCounter() ?? estimateTokens,
  });
  await app.register(chatTransferRoutes, {
    db: database.db,
    auth,
    edition: config.edition,
    audit: (entry) => insertAudit(database.db, entry),
  });
  await app.register(accountTransferRoutes, {
    db: database.db,
    auth,
    storage,
    characters,
    chats: new ChatTransferService({ db: database.db, edition: config.edition }),
    personaLimits: config.personaLimits,
    highlightsMax: config.profile.highlightsMax,
    models: { mayChoose: (viewer, id) => resolveModelChoice(inference.registry, viewer, id).id === id },
    version: config.version,
  });
  await app.register(modelRoutes, { auth, db: database.db, inference });
  await app.register(adminModelRoutes, { config, auth, inference });
  const chat = await installChat(app, {
    db: database.db,
    config,
    queue: featureQueue,
    bus,
    inference,
    auth,
    storage,
    memoryEmbedder,
    // Pictures in chats (issue 16); whether a bot is ready is image training's one rule.
    images: openImageServices(config.images, storage, {
      readyForImages: (loraStatus) => readyForImages(config, loraStatus),
      loraFor: (characterId) => loraFor(database.db, characterId),
    }),
  });
  const community = { config, db: database.db, auth, storage, queue: featureQueue, bus, characters };
  const ads = await installAds(app, { config, db: database.db, auth });
  const stopCommunity = [
    ads.stop,
    await installModeration(app, community),
    await installRatings(app, community, ads.handleEvent),
    await installBlocking(app, community),
    await installLeaderboard(app, community),
    await installRecommendations(app, community),
  ];
  await installWaitingRoom(app, {
    db: database.db,
    auth,
    capacity: config.waitingRoomCapacity,
    timing: config.product.waitingRoom,
  });
  const speech = await installVoice(app, { config, db: database.db, auth, storage });
  const imageTraining = await installImageTraining(app, {
    config,
    db: database.db,
    auth,
    storage,
    queue: featureQueue,
  });
  // The lines under load (docs/SCALING.md: what to alert on).
  addGauges(metrics, [
    ...lineGauges(database.db),
    ...roomGauges(database.db),
    ...(database.gauges?.() ?? []),
  ]);
  await installSite(app, { config, db: database.db, auth });
  await installPledges(app, { config, db: database.db, auth });
  await app.register(openAiRoutes, { inference, apiKey: config.apiKey, embeddings: memoryEmbedder });
  // The control socket `hearth backup` asks: only a server that owns the embedded database's files.
  const backups = await installBackups(app, {
    config,
    database,
    storage,
    auth,
    control: !config.databaseUrl && !overrides.database && overrides.backupControl !== false,
  });
  await app.register(healthRoutes, {
    version: config.version,
    database,
    queue,
    bus,
    modelState: () => inference.state(),
    backupState: () => backups.healthState(),
  });
  if (config.role !== "worker") await serveWeb(app, config.webDist);

  let closed = false;
  return {
    config,
    app,
    database,
    auth,
    queue,
    bus,
    inference,
    storage,
    characters,
    backups,
    imageTraining,
    routes,
    interruptReplies: () => chat.interruptNow(),
    async close(opts = {}) {
      if (closed) return;
      closed = true;
      if (opts.drainMs !== undefined) {
        // No new connections; open ones (event streams) stay until their replies end.
        app.server.close();
        const started = Date.now();
        app.log.info({ deadline_s: opts.drainMs / 1000 }, "draining: no new replies are taken here");
        const { running, interrupted } = await chat.drain(opts.drainMs);
        // The last `done` events reach their streams before the connections are cut.
        if (running > 0) await new Promise((resolve) => setTimeout(resolve, 250));
        app.log.info({ running, interrupted, ms: Date.now() - started }, "drained");
      }
      chat.stop();
      await backups.stop();
      for (const stop of stopCommunity) stop();
      imageTraining.stop();
      billing.stop();
      await app.close();
      await speech.stop();
      await inference.close();
      await memoryEmbedder?.close();
      await queue.close();
      await bus.close();
      await sharedRedis?.close();
      if (!overrides.database) await database.close();
    },
  };
}

/** S3-compatible storage when a bucket is configured, else files under the data directory. */
export function openFileStorage(config: Config): FileStorage {
  return config.storage.s3
    ? new S3FileStorage(config.storage.s3)
    : new LocalFileStorage(config.storage.filesDir);
}

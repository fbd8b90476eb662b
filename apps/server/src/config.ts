import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { SubscriberRole } from "@hearth/contract";
import { z } from "zod";
import { type HostsConfig, hostsConfig, hostsEnv } from "./config-hosts.ts";
import { type ImagesConfig, imagesConfig, imagesEnv } from "./config-images.ts";
import { type ProductConfig, productConfig, productEnv } from "./config-product.ts";
import { type SpeechConfig, speechConfig, speechEnv } from "./config-speech.ts";
import { type TrainingConfig, trainingConfig, trainingEnv } from "./config-training.ts";

/**
 * PostgreSQL connections per process. A connection is held until the event loop has taken its
 * answer, so under load each is held for a loop turn: at 500 steady streams on 2 cores, 10
 * connections made the send's session and store reads wait (first token 1.6 s at the median),
 * 30 halved that and 60 took it to 0.64 s (docs/PERFORMANCE.md, "Where the first token waited").
 * PostgreSQL's default allows 100 in all: three processes at 30, or put PgBouncer in front.
 */
export const DEFAULT_DB_POOL = 30;

/**
 * Every setting Hearth reads, from environment variables, with its default.
 * README.md documents the same list; keep both in step.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  HEARTH_DATA_DIR: z.string().default("./data"),
  /** Embedded database: at most this many milliseconds of acknowledged writes can be lost on power loss (0: none). */
  HEARTH_DURABILITY_WINDOW_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Embedded database: seconds between its vacuums and checkpoints (0: never). */
  HEARTH_DB_MAINTENANCE_S: z.coerce.number().int().min(0).max(86_400).default(60),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().optional(),
  /** PostgreSQL connections this process may hold at once (see DEFAULT_DB_POOL). */
  HEARTH_DB_POOL: z.coerce.number().int().min(1).max(1000).default(DEFAULT_DB_POOL),
  REDIS_URL: z.string().optional(),
  /** REDIS_URL names nodes of a Redis Cluster (comma-separated; one is enough). */
  HEARTH_REDIS_CLUSTER: z.stringbool().default(false),
  /** What this process does (`hearth start --role`): serve requests, run jobs, or both. */
  HEARTH_ROLE: z.enum(["all", "api", "worker"]).default("all"),
  /** Prefix of every Redis key (queues, streams, rate limits), so installs and tests can share a Redis. */
  HEARTH_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default("hearth"),
  /** Seconds without a heartbeat after which a reply's worker counts as dead and the reply is closed. */
  HEARTH_WORKER_STALE_S: z.coerce.number().int().min(2).max(3600).default(30),
  /** Seconds a SIGTERM waits for running replies to finish before closing them as interrupted (0: none). */
  HEARTH_DRAIN_S: z.coerce.number().int().min(0).max(3600).default(30),
  HEARTH_SECRET: z.string().min(32).optional(),
  HEARTH_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  HEARTH_BRAND_NAME: z.string().default("Hearth"),
  HEARTH_ACCENT: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default("#f97316"),
  HEARTH_EDITION: z.enum(["roleplay", "family", "partner"]).default("roleplay"),
  /** Off on a "flagged build": memory management hidden as on the partner edition (§6). */
  HEARTH_MEMORY_MANAGER: z.stringbool().default(true),
  HEARTH_GUESTS: z.stringbool().default(true),
  HEARTH_SIGNUP: z.stringbool().default(true),
  HEARTH_FIRST_USER_ADMIN: z.stringbool().default(true),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_PROVIDER_ID: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default("hosted"),
  OIDC_LABEL: z.string().default("Sign in"),
  HEARTH_WEB_DIST: z.string().optional(),
  HEARTH_TRUST_PROXY: z.stringbool().default(false),
  /** Other sites allowed to send state-changing requests and to embed Hearth in a frame (partner mode). */
  HEARTH_TRUSTED_ORIGINS: z.string().default(""),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_CONTEXT_SIZE: z.coerce.number().int().min(512).max(131072).default(4096),
  LLM_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  LLM_SEQUENCES: z.coerce.number().int().min(1).max(64).default(4),
  HEARTH_MODELS_FILE: z.string().optional(),
  /** Embeddings for memory recall: an OpenAI-compatible server's `/embeddings` ... */
  EMBEDDINGS_BASE_URL: z.url().optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  /** ... and the model it serves, or a GGUF embedding model run by the embedded engine. */
  EMBEDDINGS_MODEL: z.string().optional(),
  /** Where to look for model servers on this machine: `auto` (Ollama, LM Studio, llama.cpp, vLLM), `off`, or base URLs. */
  HEARTH_LOCAL_SERVERS: z.string().default("auto"),
  HEARTH_API_KEY: z.string().min(16).optional(),
  HEARTH_METRICS_TOKEN: z.string().min(16).optional(),
  HEARTH_SEED_DEMO: z.stringbool().default(true),
  HEARTH_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  HEARTH_DAILY_LIMIT_GUEST: z.coerce.number().int().min(0).default(30),
  HEARTH_DAILY_LIMIT_FREE: z.coerce.number().int().min(0).default(300),
  HEARTH_DAILY_LIMIT_PAID: z.coerce.number().int().min(0).default(0),
  HEARTH_WAITING_ROOM_CAPACITY: z.coerce.number().int().min(0).default(0),
  /** New guests one client address may start in 24 hours (accounts); 0 means no limit. */
  HEARTH_GUEST_SIGNINS_PER_DAY: z.coerce.number().int().min(0).default(5),
  /** New accounts (e-mail or partner sign-up) one client address may make in 24 hours; 0 means no limit. */
  HEARTH_SIGNUPS_PER_DAY: z.coerce.number().int().min(0).default(20),
  /** Sign-ins (e-mail and password) the whole site checks per minute, all addresses together; 0 means no limit. */
  HEARTH_SIGNINS_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  HEARTH_REVIEW_PUBLIC_BOTS: z.stringbool().default(true),
  HEARTH_PERSONA_LIMITS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parsePersonaLimits(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  HEARTH_PROFILE_LAYOUT: z.enum(["v1", "v2"]).default("v1"),
  HEARTH_HIGHLIGHTS_MAX: z.coerce.number().int().min(1).max(1000).default(300),
  HEARTH_USER_LLM_BASE_URL: z.url().default("https://api.openai.com/v1"),
  HEARTH_USER_LLM_MODEL: z.string().min(1).default("gpt-4o-mini"),
  /** Site (features/site): logo, partner mode's key and logout address, sale, Easter code, Android download, application ids. */
  HEARTH_LOGO_URL: z.string().optional(),
  HEARTH_PARTNER_KEY: z.string().min(32).optional(),
  HEARTH_PARTNER_LOGOUT_URL: z.url().optional(),
  HEARTH_SALE: z.stringbool().default(false),
  HEARTH_EASTER_CODE: z.string().min(1).optional(),
  HEARTH_ANDROID_URL: z.string().optional(),
  HEARTH_APP_ID_ROLEPLAY: z.string().optional(),
  HEARTH_APP_ID_FAMILY: z.string().optional(),
  /** Pledge linking (features/pledges): the Patreon client, its tiers by pledge amount, and its address. */
  HEARTH_PATREON_CLIENT_ID: z.string().min(1).optional(),
  HEARTH_PATREON_CLIENT_SECRET: z.string().min(1).optional(),
  HEARTH_PATREON_TIERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parsePledgeTiers(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  HEARTH_PATREON_URL: z.url().default("https://www.patreon.com"),
  /** Accounts: the SMTP server reset e-mails go through (smtp://user:pass@host:port), its sender, and deleted creators' bots. */
  SMTP_URL: z.url().optional(),
  HEARTH_MAIL_FROM: z.string().min(3).optional(),
  HEARTH_DELETED_CREATOR_BOTS: z.enum(["delete", "keep"]).default("delete"),
  /** Billing: Stripe takes cards when its keys are set (the API and script URLs move only for tests). */
  HEARTH_STRIPE_SECRET_KEY: z.string().min(8).optional(),
  HEARTH_STRIPE_PUBLISHABLE_KEY: z.string().min(8).optional(),
  HEARTH_STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  HEARTH_STRIPE_API_URL: z.url().optional(),
  HEARTH_STRIPE_SCRIPT_URL: z.url().default("https://js.stripe.com/v3/"),
  HEARTH_STRIPE_AUTOMATIC_TAX: z.stringbool().default(false),
  /** Billing: how to pay by arrangement (bank transfer…); set, members may order and an administrator confirms. */
  HEARTH_MANUAL_PAYMENTS: z.string().min(1).max(2000).optional(),
  /** Backups (features/backups): how often the schedule takes one (`6h`, `1d`, `off`), how many it keeps, and where. */
  HEARTH_BACKUP_EVERY: z
    .string()
    .default("24h")
    .transform((value, ctx) => {
      try {
        return parseBackupEvery(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  HEARTH_BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  HEARTH_BACKUP_DIR: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PUBLIC_URL: z.url().optional(),
  /** Feature flags, ads and product events (config-product.ts). */
  ...productEnv,
  /** Speech: the embedded eSpeak NG voice or an OpenAI-compatible server (config-speech.ts). */
  ...speechEnv,
  /** Image generation and content checks (config-images.ts). */
  ...imagesEnv,
  /** Image training: a LoRA training service (config-training.ts). */
  ...trainingEnv,
  /** The host names Hearth answers to, and who may read /metrics (config-hosts.ts). */
  ...hostsEnv,
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends HostsConfig {
  port: number;
  host: string;
  dataDir: string;
  /**
   * Embedded database (PGlite) only: commits' WAL is fsynced in batches, so at most this many
   * milliseconds of acknowledged writes can be lost on power loss; 0 fsyncs at every commit.
   */
  durabilityWindowMs: number;
  /** Embedded database only: seconds between vacuums of its busy tables and checkpoints; 0: never. */
  dbMaintenanceS: number;
  publicUrl: string | null;
  databaseUrl: string | null;
  /** PostgreSQL only: the connections this process may hold at once. */
  dbPool: number;
  redisUrl: string | null;
  /** `redisUrl` names nodes of a Redis Cluster (HEARTH_REDIS_CLUSTER). */
  redisCluster: boolean;
  /** `api` serves HTTP only, `worker` runs jobs and upkeep (health and metrics only), `all` both. */
  role: "all" | "api" | "worker";
  redisPrefix: string;
  /** A generation whose heartbeat is this old is closed as interrupted; workers beat four times as often. */
  workerStaleS: number;
  /** On SIGTERM, how long running replies may still finish; those left are closed as interrupted. */
  drainS: number;
  secret: string;
  logLevel: Env["HEARTH_LOG_LEVEL"];
  brand: { name: string; accent: string };
  edition: Env["HEARTH_EDITION"];
  /** Memory management may be offered (HEARTH_MEMORY_MANAGER); the partner edition hides it anyway. */
  memoryManager: boolean;
  guests: boolean;
  signup: boolean;
  /** The first account that signs up on a fresh install becomes the administrator. */
  firstUserAdmin: boolean;
  oidc: { issuer: string; clientId: string; clientSecret: string; providerId: string; label: string } | null;
  webDist: string;
  /** Behind a reverse proxy, take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /**
   * Origins besides Hearth's own (`https://partner.example`) that may send state-changing
   * requests and embed Hearth in a frame; empty by default.
   */
  trustedOrigins: string[];
  llm: {
    baseUrl: string | null;
    apiKey: string | null;
    /** A model id: a catalog/downloaded name, a GGUF path, or the remote server's model name. */
    model: string | null;
    contextSize: number;
    threads: number;
    sequences: number;
    /** A JSON file listing several models (see docs/models.md); overrides the single-model settings. */
    modelsFile: string | null;
    /** Model servers on this machine to offer the administrator (never used unasked). */
    localServers: LocalServerCandidate[];
  };
  /**
   * Embeddings for memory recall (vector similarity beside keywords): a remote OpenAI-compatible
   * server (`baseUrl` set, `model` its name) or a GGUF file the embedded engine runs (`model` a
   * path); null: memories are recalled by keywords and recency alone.
   */
  embeddings: { baseUrl: string | null; apiKey: string | null; model: string } | null;
  /** Bearer key that opens Hearth's own OpenAI-compatible API under /v1; unset keeps it closed. */
  apiKey: string | null;
  /** Bearer token /metrics asks for; unset, only this machine may read it (see metricsPublic). */
  metricsToken: string | null;
  /** Create the demo characters on the first start of an empty install. */
  seedDemo: boolean;
  /** API requests per minute per client address; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Messages a day by standing; 0 means no limit. */
  dailyLimits: { guest: number; free: number; paid: number };
  /** Members chatting at once before others wait in line (features/waiting-room); 0 turns the room off. */
  waitingRoomCapacity: number;
  /** Guest sign-ins per client address in 24 hours, so a guest's allowance cannot be reset at will; 0: no limit. */
  guestSignInsPerDay: number;
  signUpsPerDay: number;
  /** Password sign-ins the whole site checks per minute, so a spread-out guessing run meets a ceiling; 0: no limit. */
  signInsPerMinute: number;
  /** Public bots go to the moderators' review queue (`pending`) when created or edited. */
  reviewPublicBots: boolean;
  /** Most personas a member may have, by effective tier; null means no limit. Admins have none. */
  personaLimits: PersonaLimits;
  /** Profile settings: the page's layout (v1 wider, v2 narrower) and the highlights' maximum length. */
  profile: { layout: "v1" | "v2"; highlightsMax: number };
  /** Where a member's own language-model key is used (llm_mode enabled/hybrid), and the model asked for. */
  userLlm: { baseUrl: string; model: string };
  /** The site's public settings and partner mode (features/site, docs/partner-mode.md). */
  site: {
    logoUrl: string | null;
    /** HMAC-SHA256 key partner tokens are signed with; null: token login refused. */
    partnerKey: string | null;
    partnerLogoutUrl: string | null;
    saleActive: boolean;
    easterCode: string | null;
    androidUrl: string | null;
    applicationIds: { roleplay: string | null; family: string | null };
  };
  /** Pledge platforms members may link (Patreon); null where not configured. */
  pledges: {
    patreon: { clientId: string; clientSecret: string; baseUrl: string; tiers: PledgeTier[] } | null;
  };
  /** Outgoing e-mail (password resets); null: users cannot request a reset themselves. */
  mail: { smtpUrl: string; from: string } | null;
  /**
   * A deleted account's bots: deleted with it (`delete`, their chats with it), or kept and handed to
   * the "deleted user" system account so other members keep their chats (`keep`).
   */
  deletedCreatorBots: "delete" | "keep";
  /** Payments: Stripe for cards (null: no cards), and the manual provider's instructions (null: not offered). */
  billing: {
    stripe: {
      secretKey: string;
      publishableKey: string;
      webhookSecret: string;
      apiUrl: string | null;
      scriptUrl: string;
      automaticTax: boolean;
    } | null;
    manualInstructions: string | null;
  };
  /** Uploaded files: S3-compatible storage when a bucket is named, else `filesDir` on local disk. */
  storage: {
    filesDir: string;
    s3: {
      bucket: string;
      endpoint: string | null;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      publicUrl: string | null;
    } | null;
  };
  /** Feature flags and constants for the client, ads in chat, product events (config-product.ts). */
  product: ProductConfig;
  /** Text to speech for Listen and voice samples (config-speech.ts, features/voice). */
  speech: SpeechConfig;
  /** Per-bot image training's LoRA service, or null (config-training.ts, features/image-training). */
  training: TrainingConfig;
  /** Image generation in chats and its content checks (config-images.ts). */
  images: ImagesConfig;
  /**
   * Scheduled backups (features/backups): every `everyMs` (null: off) one process takes a backup
   * into `dir` and keeps the newest `keep` there.
   */
  backups: { everyMs: number | null; keep: number; dir: string };
  version: string;
}

export class ConfigError extends Error {}

/** Reads and validates the environment. Throws ConfigError naming each bad variable. */
/** What of the site decides whether memories exist at all. */
export type MemorySite = Pick<Config, "edition" | "memoryManager">;

/** The partner edition and flagged builds (HEARTH_MEMORY_MANAGER=false) hide memory management everywhere (§6). */
export const memoriesOffered = (site: MemorySite) => site.edition !== "partner" && site.memoryManager;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.HEARTH_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const oidc =
    e.OIDC_ISSUER && e.OIDC_CLIENT_ID
      ? {
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET ?? "",
          providerId: e.OIDC_PROVIDER_ID,
          label: e.OIDC_LABEL,
        }
      : null;
  if (e.HEARTH_ROLE !== "all" && !(e.DATABASE_URL && e.REDIS_URL)) {
    throw new ConfigError(
      `HEARTH_ROLE=${e.HEARTH_ROLE} needs DATABASE_URL and REDIS_URL: processes split by role share work through PostgreSQL and Redis (the in-process queue cannot cross processes, and PGlite serves one process).`,
    );
  }
  if (e.HEARTH_REDIS_CLUSTER && !e.REDIS_URL) {
    throw new ConfigError(
      "HEARTH_REDIS_CLUSTER=true needs REDIS_URL: the address of one or more of the cluster's nodes (redis://host:port, comma-separated).",
    );
  }
  if (e.S3_BUCKET && !(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration:\n  S3_BUCKET is set: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are needed too",
    );
  }
  const product = productConfig(e);
  if (typeof product === "string") throw new ConfigError(`Invalid configuration:\n  ${product}`);
  const speech = speechConfig(e);
  if (typeof speech === "string") throw new ConfigError(`Invalid configuration:\n  ${speech}`);
  const images = imagesConfig(e);
  if (typeof images === "string") throw new ConfigError(`Invalid configuration:\n  ${images}`);
  const hosts = hostsConfig(e);
  if (typeof hosts === "string") throw new ConfigError(`Invalid configuration:\n  ${hosts}`);
  const s3 = e.S3_BUCKET
    ? {
        bucket: e.S3_BUCKET,
        endpoint: e.S3_ENDPOINT ?? null,
        region: e.S3_REGION,
        accessKeyId: e.S3_ACCESS_KEY_ID ?? "",
        secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? "",
        publicUrl: e.S3_PUBLIC_URL ?? null,
      }
    : null;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    durabilityWindowMs: e.HEARTH_DURABILITY_WINDOW_MS,
    dbMaintenanceS: e.HEARTH_DB_MAINTENANCE_S,
    publicUrl: e.PUBLIC_URL ?? null,
    databaseUrl: e.DATABASE_URL || null,
    dbPool: e.HEARTH_DB_POOL,
    redisUrl: e.REDIS_URL || null,
    redisCluster: e.HEARTH_REDIS_CLUSTER,
    role: e.HEARTH_ROLE,
    redisPrefix: e.HEARTH_REDIS_PREFIX,
    workerStaleS: e.HEARTH_WORKER_STALE_S,
    drainS: e.HEARTH_DRAIN_S,
    secret: e.HEARTH_SECRET ?? persistentSecret(dataDir),
    logLevel: e.HEARTH_LOG_LEVEL,
    brand: { name: e.HEARTH_BRAND_NAME, accent: e.HEARTH_ACCENT },
    edition: e.HEARTH_EDITION,
    memoryManager: e.HEARTH_MEMORY_MANAGER,
    guests: e.HEARTH_GUESTS,
    signup: e.HEARTH_SIGNUP,
    firstUserAdmin: e.HEARTH_FIRST_USER_ADMIN,
    oidc,
    webDist: path.resolve(e.HEARTH_WEB_DIST ?? path.join(repoRoot(), "apps/web/dist")),
    trustProxy: e.HEARTH_TRUST_PROXY,
    trustedOrigins: trustedOrigins(e.HEARTH_TRUSTED_ORIGINS),
    llm: {
      baseUrl: e.LLM_BASE_URL ?? null,
      apiKey: e.LLM_API_KEY ?? null,
      model: e.LLM_MODEL ?? null,
      contextSize: e.LLM_CONTEXT_SIZE,
      // One core stays free for the server on small machines; llama.cpp's own guess oversubscribes.
      threads: e.LLM_THREADS ?? Math.max(1, availableParallelism() - 1),
      sequences: e.LLM_SEQUENCES,
      modelsFile: e.HEARTH_MODELS_FILE ?? null,
      localServers: localServers(e.HEARTH_LOCAL_SERVERS, e.PORT),
    },
    embeddings: e.EMBEDDINGS_MODEL
      ? {
          baseUrl: e.EMBEDDINGS_BASE_URL ?? null,
          apiKey: e.EMBEDDINGS_API_KEY ?? null,
          model: e.EMBEDDINGS_MODEL,
        }
      : null,
    apiKey: e.HEARTH_API_KEY ?? null,
    metricsToken: e.HEARTH_METRICS_TOKEN ?? null,
    ...hosts,
    seedDemo: e.HEARTH_SEED_DEMO,
    rateLimitPerMinute: e.HEARTH_RATE_LIMIT,
    dailyLimits: {
      guest: e.HEARTH_DAILY_LIMIT_GUEST,
      free: e.HEARTH_DAILY_LIMIT_FREE,
      paid: e.HEARTH_DAILY_LIMIT_PAID,
    },
    waitingRoomCapacity: e.HEARTH_WAITING_ROOM_CAPACITY,
    guestSignInsPerDay: e.HEARTH_GUEST_SIGNINS_PER_DAY,
    signUpsPerDay: e.HEARTH_SIGNUPS_PER_DAY,
    signInsPerMinute: e.HEARTH_SIGNINS_PER_MINUTE,
    reviewPublicBots: e.HEARTH_REVIEW_PUBLIC_BOTS,
    personaLimits: e.HEARTH_PERSONA_LIMITS,
    profile: { layout: e.HEARTH_PROFILE_LAYOUT, highlightsMax: e.HEARTH_HIGHLIGHTS_MAX },
    userLlm: { baseUrl: e.HEARTH_USER_LLM_BASE_URL, model: e.HEARTH_USER_LLM_MODEL },
    site: {
      logoUrl: e.HEARTH_LOGO_URL || null,
      partnerKey: e.HEARTH_PARTNER_KEY ?? null,
      partnerLogoutUrl: e.HEARTH_PARTNER_LOGOUT_URL ?? null,
      saleActive: e.HEARTH_SALE,
      easterCode: e.HEARTH_EASTER_CODE ?? null,
      androidUrl: e.HEARTH_ANDROID_URL || null,
      applicationIds: { roleplay: e.HEARTH_APP_ID_ROLEPLAY || null, family: e.HEARTH_APP_ID_FAMILY || null },
    },
    pledges: {
      patreon:
        e.HEARTH_PATREON_CLIENT_ID && e.HEARTH_PATREON_CLIENT_SECRET
          ? {
              clientId: e.HEARTH_PATREON_CLIENT_ID,
              clientSecret: e.HEARTH_PATREON_CLIENT_SECRET,
              baseUrl: e.HEARTH_PATREON_URL.replace(/\/+$/, ""),
              tiers: e.HEARTH_PATREON_TIERS,
            }
          : null,
    },
    mail: e.SMTP_URL
      ? { smtpUrl: e.SMTP_URL, from: e.HEARTH_MAIL_FROM ?? `${e.HEARTH_BRAND_NAME} <no-reply@localhost>` }
      : null,
    deletedCreatorBots: e.HEARTH_DELETED_CREATOR_BOTS,
    billing: {
      stripe:
        e.HEARTH_STRIPE_SECRET_KEY && e.HEARTH_STRIPE_PUBLISHABLE_KEY && e.HEARTH_STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: e.HEARTH_STRIPE_SECRET_KEY,
              publishableKey: e.HEARTH_STRIPE_PUBLISHABLE_KEY,
              webhookSecret: e.HEARTH_STRIPE_WEBHOOK_SECRET,
              apiUrl: e.HEARTH_STRIPE_API_URL ?? null,
              scriptUrl: e.HEARTH_STRIPE_SCRIPT_URL,
              automaticTax: e.HEARTH_STRIPE_AUTOMATIC_TAX,
            }
          : null,
      manualInstructions: e.HEARTH_MANUAL_PAYMENTS ?? null,
    },
    storage: { filesDir: path.join(dataDir, "files"), s3 },
    product,
    speech,
    images,
    training: trainingConfig(e),
    backups: {
      everyMs: e.HEARTH_BACKUP_EVERY,
      keep: e.HEARTH_BACKUP_KEEP,
      dir: path.resolve(e.HEARTH_BACKUP_DIR ?? path.join(dataDir, "backups")),
    },
    version: readVersion(),
  };
}

export type PersonaLimits = Record<SubscriberRole, number | null>;

export const DEFAULT_PERSONA_LIMITS: Readonly<PersonaLimits> = {
  free: 3,
  minimal: 10,
  basic: 25,
  premium: 50,
};

/**
 * HEARTH_PERSONA_LIMITS: comma-separated `tier:count` pairs, e.g. `free:3,minimal:10,basic:25,premium:50`.
 * A count of 0 means the tier cannot create personas; `unlimited` removes the limit. Tiers left out
 * keep their defaults. Throws with a readable message on anything else.
 */
export function parsePersonaLimits(value: string | undefined): PersonaLimits {
  const limits: PersonaLimits = { ...DEFAULT_PERSONA_LIMITS };
  if (!value?.trim()) return limits;
  const tiers = Object.keys(DEFAULT_PERSONA_LIMITS) as SubscriberRole[];
  for (const pair of value.split(",")) {
    if (!pair.trim()) continue;
    const match = /^\s*([a-z]+)\s*:\s*(\d{1,9}|unlimited)\s*$/i.exec(pair);
    const tier = match?.[1]?.toLowerCase() as SubscriberRole | undefined;
    if (!match || !tier || !tiers.includes(tier)) {
      throw new Error(
        `"${pair.trim()}" is not tier:count (tiers ${tiers.join(", ")}; count a number or "unlimited")`,
      );
    }
    const count = match[2]?.toLowerCase() ?? "";
    limits[tier] = count === "unlimited" ? null : Number(count);
  }
  return limits;
}

const DURATION_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * HEARTH_BACKUP_EVERY: a number and a unit, `m` (minutes), `h` (hours) or `d` (days), e.g. `6h`,
 * `30m`, `1d`; at least 5 minutes and at most 365 days. `off` (or `0`, `false`, `none`) turns
 * scheduled backups off: answers null. Throws with a readable message on anything else.
 */
export function parseBackupEvery(value: string): number | null {
  const given = value.trim().toLowerCase();
  if (["off", "0", "false", "none", "no"].includes(given)) return null;
  const match = /^(\d{1,6})\s*([mhd])$/.exec(given);
  const unit = match ? DURATION_UNITS[match[2] ?? ""] : undefined;
  if (!match || !unit)
    throw new Error(`"${value}" is not a period: a number and m, h or d (e.g. 6h, 30m, 1d), or "off"`);
  const ms = Number(match[1]) * unit;
  if (ms < 5 * 60_000) throw new Error(`"${value}" is too often: at least 5m between backups`);
  if (ms > 365 * 86_400_000) throw new Error(`"${value}" is too long: at most 365d`);
  return ms;
}

/** A pledge of at least `minCents` a month grants `role`. */
export interface PledgeTier {
  role: Exclude<SubscriberRole, "free">;
  minCents: number;
}

/**
 * HEARTH_PATREON_TIERS: comma-separated `tier:cents`, e.g. `minimal:500,basic:1500,premium:2500`
 * (the default): a pledge of at least that many cents a month grants the tier. Answers them from
 * the highest threshold down; throws with a readable message on anything else.
 */
export function parsePledgeTiers(value: string | undefined): PledgeTier[] {
  const roles = ["minimal", "basic", "premium"] as const;
  const tiers = new Map<PledgeTier["role"], number>();
  for (const pair of (value?.trim() ? value : "minimal:500,basic:1500,premium:2500").split(",")) {
    if (!pair.trim()) continue;
    const match = /^\s*([a-z]+)\s*:\s*(\d{1,9})\s*$/i.exec(pair);
    const role = roles.find((r) => r === match?.[1]?.toLowerCase());
    if (!match || !role || Number(match[2]) < 1) {
      throw new Error(`"${pair.trim()}" is not tier:cents (tiers ${roles.join(", ")}; cents 1 or more)`);
    }
    tiers.set(role, Number(match[2]));
  }
  return [...tiers].map(([role, minCents]) => ({ role, minCents })).sort((a, b) => b.minCents - a.minCents);
}

/**
 * OpenAI-compatible model servers people commonly run on the same machine. Hearth looks for
 * them so an administrator can switch to a real model with one click; it never uses one unasked.
 */
export interface LocalServerCandidate {
  name: string;
  /** The OpenAI-compatible base (ends in /v1). */
  base_url: string;
}

export const DEFAULT_LOCAL_SERVERS: readonly LocalServerCandidate[] = [
  { name: "Ollama", base_url: "http://127.0.0.1:11434/v1" },
  { name: "LM Studio", base_url: "http://127.0.0.1:1234/v1" },
  { name: "llama.cpp server", base_url: "http://127.0.0.1:8080/v1" },
  { name: "vLLM", base_url: "http://127.0.0.1:8000/v1" },
];

/** HEARTH_LOCAL_SERVERS: the usual local servers, none, or the base URLs given; never Hearth's own port. */
function localServers(value: string, ownPort: number): LocalServerCandidate[] {
  const setting = value.trim().toLowerCase();
  if (setting === "off" || setting === "false" || setting === "") return [];
  const candidates =
    setting === "auto"
      ? [...DEFAULT_LOCAL_SERVERS]
      : value.split(",").map((url) => {
          const base = url.trim().replace(/\/+$/, "");
          if (!/^https?:\/\/[^/]+/.test(base))
            throw new ConfigError(`HEARTH_LOCAL_SERVERS: "${url.trim()}" is not an http(s) address`);
          return { name: new URL(base).host, base_url: base };
        });
  return candidates.filter((c) => new URL(c.base_url).port !== String(ownPort));
}

/**
 * HEARTH_TRUSTED_ORIGINS: comma-separated origins (`https://partner.example`), each normalised
 * to the form browsers send in the Origin header (lower case, no default port, no path).
 */
function trustedOrigins(value: string): string[] {
  const origins = new Set<string>();
  for (const item of value.split(",")) {
    const given = item.trim();
    if (!given) continue;
    let url: URL | null = null;
    try {
      url = new URL(given);
    } catch {
      // Reported below with the other malformed values.
    }
    if (
      !url ||
      !/^https?:$/.test(url.protocol) ||
      url.pathname.replace(/\/$/, "") ||
      url.search ||
      url.hash
    ) {
      throw new ConfigError(
        `HEARTH_TRUSTED_ORIGINS: "${given}" is not an origin (http(s)://host[:port], with no path)`,
      );
    }
    origins.add(url.origin);
  }
  return [...origins];
}

/** A secret generated once per data directory, so a fresh install needs no setup and sessions survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, "secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function repoRoot(): string {
  return path.resolve(import.meta.dirname, "../../..");
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

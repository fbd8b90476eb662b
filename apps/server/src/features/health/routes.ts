import { type Health, operationsEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client.ts";
import { openApiDocument } from "../../http/openapi.ts";
import { route } from "../../http/route.ts";
import type { EventBus } from "../../ports/bus.ts";
import type { JobQueue } from "../../ports/queue.ts";

export interface ModelState {
  status: "ok" | "degraded" | "down";
  backend: string;
  name: string | null;
  detail?: string;
}

export interface HealthDeps {
  version: string;
  database: Database;
  queue: JobQueue;
  bus: EventBus;
  modelState: () => ModelState;
  /** The last backup on record (features/backups). */
  backupState: () => Promise<Health["backup"]>;
}

const PING_TIMEOUT_MS = 2000;

async function check(ping: () => Promise<void>): Promise<{ status: "ok" | "down"; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timed out")), PING_TIMEOUT_MS).unref();
      }),
    ]);
    return { status: "ok" };
  } catch (error) {
    return { status: "down", detail: error instanceof Error ? error.message : "unreachable" };
  } finally {
    // A probe every few seconds would otherwise leave three timers behind for two seconds each.
    clearTimeout(timer);
  }
}

/** 200 while the database answers (the app can serve); 503 when it does not. */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps) {
  const started = Date.now();
  route(app, operationsEndpoints.health, async ({ reply }) => {
    const [database, queue, bus, backup] = await Promise.all([
      check(() => deps.database.ping()),
      check(() => deps.queue.ping()),
      check(() => deps.bus.ping()),
      deps.backupState().catch(() => ({ last_at: null, size_bytes: null })),
    ]);
    const queueState = queue.status !== "ok" ? queue : bus;
    const model = deps.modelState();
    const body: Health = {
      status:
        database.status !== "ok"
          ? "down"
          : queueState.status !== "ok" || model.status !== "ok"
            ? "degraded"
            : "ok",
      version: deps.version,
      uptime_s: Math.round((Date.now() - started) / 1000),
      database: { ...database, driver: deps.database.driver },
      queue: { ...queueState, driver: deps.queue.driver },
      model,
      backup,
    };
    reply.status(body.status === "down" ? 503 : 200);
    return body;
  });

  // Built once: the contract does not change while the server runs.
  const document = openApiDocument(deps.version);
  route(app, operationsEndpoints.openapi, async () => document);
}

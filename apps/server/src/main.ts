import { createHearth, type Hearth } from "./app.ts";
import type { Config } from "./config.ts";
import { usernameExists } from "./features/accounts/index.ts";
import { SYSTEM_USERNAME, seedDemoCharacters } from "./features/characters/index.ts";
import { isDemoModel } from "./features/inference/index.ts";
import { probeLocalServers, REAL_MODEL_COMMAND } from "./features/models/index.ts";
import { flushLog } from "./logger.ts";

/**
 * Connections the kernel holds for the process before it accepts them (capped by the system's
 * somaxconn). Node's own 511 overflowed when 1,000 clients connected at once: the dropped ones
 * waited for their SYN's resend (1 s, then 3 s). A Node process accepts one connection per
 * event-loop turn, so a burst waits here rather than being refused.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Starts serving and shuts down cleanly on SIGTERM/SIGINT: running replies get HEARTH_DRAIN_S to
 * finish (those left are closed as interrupted), then pools close. A second signal ends at once.
 */
export async function startServer(config: Config): Promise<Hearth> {
  const hearth = await createHearth(config);
  // Without its embedded database a server can store nothing: it exits, to be started again
  // (by its supervisor, or by hand), rather than answer every request with an error.
  hearth.database.onLost?.((err) => {
    hearth.app.log.fatal({ err }, "the embedded database's thread stopped; Hearth exits");
    process.exit(1);
  });
  if (config.seedDemo) await seedOnFirstStart(hearth);
  // An api process never loads a model: its replies run on workers.
  if (config.role !== "api")
    hearth.inference.warmUp((err) => hearth.app.log.error({ err }, "the default model could not be loaded"));
  const address = await hearth.app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  hearth.app.log.info(
    { address, role: config.role, database: hearth.database.driver, queue: hearth.queue.driver },
    "Hearth is running",
  );
  // Log lines wait in a buffer (logger.ts); this one is what supervisors and scripts wait for.
  flushLog();
  if (config.role !== "worker" && isDemoModel(hearth.inference.defaultEntry))
    void offerRealModels(hearth, config);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second signal: running replies are closed as interrupted now, and the process ends.
      hearth.app.log.info({ signal }, "stopping now: running replies are closed as interrupted");
      hearth.interruptReplies();
      setTimeout(() => process.exit(1), 5_000).unref();
      return;
    }
    stopping = true;
    hearth.app.log.info({ signal, drain_s: config.drainS }, "shutting down");
    // The drain's deadline, then time to close what is left.
    const force = setTimeout(() => process.exit(1), config.drainS * 1000 + 15_000);
    force.unref();
    try {
      await hearth.close({ drainMs: config.drainS * 1000 });
      process.exit(0);
    } catch (error) {
      hearth.app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return hearth;
}

/**
 * On the demo model: says how to get a real one, and names any model server already running on
 * this machine (the administrator switches to it under Admin → Models; nothing is used unasked).
 */
async function offerRealModels(hearth: Hearth, config: Config): Promise<void> {
  const log = hearth.app.log;
  log.info(
    { command: REAL_MODEL_COMMAND },
    `Chatting with the tiny demo model. For a real one, run: ${REAL_MODEL_COMMAND} (or set LLM_BASE_URL)`,
  );
  const found = await probeLocalServers(config.llm.localServers);
  for (const server of found) {
    log.info(
      { server: server.name, base_url: server.base_url, models: server.models.slice(0, 10) },
      `${server.name} is running on this machine with ${server.models.length} model(s): an administrator can switch to it under Admin → Models`,
    );
  }
}

/**
 * A fresh install gets the demo characters so there is something to browse and chat with. Only
 * on the very first start (no system user yet): characters an operator deletes stay deleted.
 */
async function seedOnFirstStart(hearth: Hearth): Promise<void> {
  const db = hearth.database.db;
  if (await usernameExists(db, SYSTEM_USERNAME)) return;
  const created = await seedDemoCharacters(db, hearth.characters);
  hearth.app.log.info(
    { characters: created },
    "first start: created the demo characters (HEARTH_SEED_DEMO=false skips this)",
  );
}

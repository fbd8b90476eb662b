import { createHearth, type Hearth } from "./app.ts";
import type { Config } from "./config.ts";

/** Starts serving and shuts down cleanly on SIGTERM/SIGINT (finish requests, close pools). */
export async function startServer(config: Config): Promise<Hearth> {
  const hearth = await createHearth(config);
  hearth.inference.warmUp((err) => hearth.app.log.error({ err }, "the default model could not be loaded"));
  const address = await hearth.app.listen({ port: config.port, host: config.host });
  hearth.app.log.info(
    { address, database: hearth.database.driver, queue: hearth.queue.driver },
    "Hearth is running",
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    hearth.app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await hearth.close();
      process.exit(0);
    } catch (error) {
      hearth.app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  return hearth;
}

import type { FastifyInstance } from "fastify";
import type { Config } from "./config.ts";
import { notFound } from "./http/errors.ts";
import type { JobQueue } from "./ports/queue.ts";

/**
 * What a process does (`hearth start --role`, HEARTH_ROLE): `api` serves requests and only
 * enqueues work; `worker` runs the jobs and upkeep and answers only its probes; `all` both.
 */
export type Role = Config["role"];

/** The queue an `api` process hands its features: enqueuing works, workers are never registered. */
export function enqueueOnly(queue: JobQueue): JobQueue {
  return {
    get driver() {
      return queue.driver;
    },
    enqueue: (name, data, opts) => queue.enqueue(name, data, opts),
    process: () => {},
    pause: async () => {},
    ping: () => queue.ping(),
    close: () => queue.close(),
  };
}

/** The only paths a `worker` answers, so an orchestrator can probe and scrape it. */
const PROBES = new Set(["/api/health", "/metrics"]);

/**
 * A worker registers the features (their jobs and upkeep come with them) but answers nothing
 * but its probes: one hook, before any route's input is read.
 */
export function serveOnlyProbes(app: FastifyInstance): void {
  app.addHook("onRequest", async (req) => {
    const path = req.url.split("?")[0] ?? "";
    if (!PROBES.has(path)) throw notFound("This process runs jobs only (HEARTH_ROLE=worker).");
  });
}

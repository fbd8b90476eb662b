import { timingSafeEqual } from "node:crypto";
import { operationsEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Config } from "../config.ts";
import { HttpError } from "./errors.ts";
import { fromLoopback } from "./host-check.ts";
import { route } from "./route.ts";

/** Compares secrets in constant time (a length mismatch is an ordinary no). */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

type MetricsAccess = Pick<Config, "metricsToken" | "metricsPublic">;

/**
 * Who may read /metrics (route names and load are not everyone's business): with a token set,
 * only `Authorization: Bearer <token>`; without one, only this machine (a Prometheus beside
 * Hearth), unless HEARTH_METRICS_PUBLIC opens it to every address.
 */
function assertMayReadMetrics(access: MetricsAccess, req: FastifyRequest): void {
  const { metricsToken: token } = access;
  if (token) {
    if (sameSecret(req.headers.authorization ?? "", `Bearer ${token}`)) return;
    throw new HttpError(401, "unauthorized", "Metrics need the metrics token (Authorization: Bearer).");
  }
  if (access.metricsPublic || fromLoopback(req)) return;
  throw new HttpError(
    403,
    "forbidden",
    "Metrics are served only to this machine. To read them from elsewhere, set HEARTH_METRICS_TOKEN and send it as Authorization: Bearer, or set HEARTH_METRICS_PUBLIC=true on a private network.",
  );
}

/** Prometheus metrics: process defaults plus request counts and latency by route. */
export function installMetrics(app: FastifyInstance, access: MetricsAccess): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "hearth_" });
  const requests = new Counter({
    name: "hearth_http_requests_total",
    help: "HTTP requests by method, route and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "hearth_http_request_duration_seconds",
    help: "HTTP request duration by method and route",
    labelNames: ["method", "route"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.addHook("onResponse", async (req, reply) => {
    // The route pattern, not the URL, keeps label cardinality bounded.
    const route = req.routeOptions.url ?? "unmatched";
    requests.inc({ method: req.method, route, status: reply.statusCode });
    latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  route(app, operationsEndpoints.metrics, async ({ req, reply }) => {
    assertMayReadMetrics(access, req);
    return reply.header("content-type", registry.contentType).send(await registry.metrics());
  });
  return registry;
}

/** A gauge a feature reads from its own state when /metrics is scraped (features stay free of prom-client). */
export interface GaugeReading {
  name: string;
  help: string;
  labelNames: string[];
  read(): Promise<{ labels: Record<string, string>; value: number }[]>;
}

export function addGauges(registry: Registry, readings: GaugeReading[]): void {
  for (const reading of readings) {
    new Gauge({
      name: reading.name,
      help: reading.help,
      labelNames: reading.labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { labels, value } of await reading.read()) this.set(labels, value);
      },
    });
  }
}

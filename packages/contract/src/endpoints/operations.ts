import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import { health } from "../health.ts";

/** For operators and integrators: health, and this API's own reference. */
export const operationsEndpoints = {
  health: endpoint({
    method: "GET",
    path: "/api/health",
    summary: "Version and the state of the database, queue and model (503 when the database is down)",
    tag: "Operations",
    access: "anyone",
    response: health,
  }),
  metrics: endpoint({
    method: "GET",
    path: "/metrics",
    summary:
      "Prometheus metrics: with HEARTH_METRICS_TOKEN set, `Authorization: Bearer` that token; else this machine only (or anyone with HEARTH_METRICS_PUBLIC=true)",
    tag: "Operations",
    access: "anyone",
    response: null,
    file: "text/plain",
  }),
  openapi: endpoint({
    method: "GET",
    path: "/api/openapi.json",
    summary: "This reference as an OpenAPI 3.1 document, generated from the endpoint contract",
    tag: "Operations",
    access: "anyone",
    response: z.record(z.string(), z.unknown()),
  }),
};

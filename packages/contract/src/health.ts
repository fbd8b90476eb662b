import { z } from "zod";

export const componentState = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  detail: z.string().optional(),
});

export const health = z.object({
  status: z.enum(["ok", "degraded", "down"]),
  version: z.string(),
  uptime_s: z.number(),
  database: componentState.extend({ driver: z.enum(["pglite", "postgres"]) }),
  queue: componentState.extend({ driver: z.enum(["in-process", "redis"]) }),
  model: componentState.extend({ backend: z.string(), name: z.string().nullable() }),
});
export type Health = z.infer<typeof health>;

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
  /** The last backup this process's backup folder records (features/backups); nulls when none. */
  backup: z.object({
    last_at: z.string().nullable(),
    size_bytes: z.number().int().min(0).nullable(),
  }),
});
export type Health = z.infer<typeof health>;

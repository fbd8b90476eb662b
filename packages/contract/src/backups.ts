import { z } from "zod";

/** The last backup this install recorded (features/backups: `hearth backup` or the schedule). */
export const backupRecord = z.object({
  created_at: z.string(),
  finished_at: z.string(),
  size_bytes: z.number().int().min(0),
  duration_ms: z.number().int().min(0),
  database: z.enum(["pglite", "postgres"]),
  /** Stored files (avatars, images, audio) it holds. */
  files: z.number().int().min(0),
  trigger: z.enum(["schedule", "command"]),
});
export type BackupRecord = z.infer<typeof backupRecord>;

/** Admin → Backups: the schedule, the last backup, and the backups kept in the folder. */
export const adminBackups = z.object({
  schedule: z.object({
    /** Seconds between scheduled backups (HEARTH_BACKUP_EVERY); null: off. */
    every_s: z.number().int().nullable(),
    /** Backups the schedule keeps (HEARTH_BACKUP_KEEP). */
    keep: z.number().int(),
    /** The folder on the server (HEARTH_BACKUP_DIR). */
    dir: z.string(),
    /** When the next scheduled backup is due, at the earliest; null when off. */
    next_at: z.string().nullable(),
  }),
  last: backupRecord.nullable(),
  backups: z.array(z.object({ name: z.string(), size_bytes: z.number().int(), created_at: z.string() })),
});
export type AdminBackups = z.infer<typeof adminBackups>;

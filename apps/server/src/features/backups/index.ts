// What the backups feature offers the rest of the server (issue 18): consistent online backups of
// the database and the stored files, restore, the schedule with rotation, and their state for
// /api/health and Admin → Backups. The commands (`hearth backup`, `hearth restore`) are in cli.ts.
import { type AdminBackups, backupEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { route } from "../../http/route.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { type Auth, assertPermission, requireViewer } from "../accounts/index.ts";
import { type ControlServer, startControlServer } from "./control.ts";
import { advisoryLeader, BackupSchedule, SCHEDULE_TICK_MS, soleProcess } from "./schedule.ts";
import { BackupService, FIRST_BACKUP_AFTER_MS } from "./service.ts";
import { listBackups, readRecord } from "./store.ts";

export { BackupSchedule } from "./schedule.ts";
export { BackupService, backupDue } from "./service.ts";

export interface BackupsDeps {
  config: Config;
  database: Database;
  storage: FileStorage;
  auth: Auth;
  /**
   * Open the control socket `hearth backup` reaches this process through: only `hearth start` on
   * the embedded database (with PostgreSQL the command takes the backup itself).
   */
  control: boolean;
}

export interface Backups {
  service: BackupService;
  schedule: BackupSchedule | null;
  /** The last backup for /api/health. */
  healthState(): Promise<{ last_at: string | null; size_bytes: number | null }>;
  stop(): Promise<void>;
}

/**
 * Registers Admin → Backups, starts the schedule (not on `api` processes; on PostgreSQL one
 * process takes them, see schedule.ts) and, when asked, the control socket.
 */
export async function installBackups(app: FastifyInstance, deps: BackupsDeps): Promise<Backups> {
  const { config } = deps;
  const service = new BackupService(
    {
      database: deps.database,
      databaseUrl: config.databaseUrl,
      storage: deps.storage,
      dataDir: config.dataDir,
      version: config.version,
    },
    config.backups,
  );
  const schedules = config.role !== "api" && config.backups.everyMs !== null;
  const leader = config.databaseUrl ? advisoryLeader(config.databaseUrl) : soleProcess;
  const schedule = schedules ? new BackupSchedule({ service, leader, log: app.log }) : null;
  let timer: NodeJS.Timeout | null = null;
  if (schedule) {
    timer = setInterval(() => void schedule.tick(), SCHEDULE_TICK_MS);
    timer.unref();
  }
  let control: ControlServer | null = null;
  if (deps.control) {
    // Without it Hearth still serves; only `hearth backup` beside it is refused (and says so).
    control = await startControlServer(config.dataDir, {
      backup: (out) => service.toStream(out),
      log: app.log,
    }).catch((err: unknown) => {
      app.log.error(
        { err },
        "the backup control socket could not be opened: `hearth backup` cannot reach this server",
      );
      return null;
    });
  }

  await app.register(async (admin) => {
    admin.addHook("preHandler", async (req) => {
      assertPermission(await requireViewer(deps.auth, req), "admin");
    });
    route(admin, backupEndpoints.adminOverview, async (): Promise<AdminBackups> => {
      const last = await readRecord(config.backups.dir);
      const everyMs = config.backups.everyMs;
      const startedAt = schedule?.startedAt ?? new Date();
      const nextAt =
        everyMs === null
          ? null
          : new Date(
              last
                ? new Date(last.created_at).getTime() + everyMs
                : startedAt.getTime() + Math.min(everyMs, FIRST_BACKUP_AFTER_MS),
            ).toISOString();
      return {
        schedule: {
          every_s: everyMs === null ? null : Math.round(everyMs / 1000),
          keep: config.backups.keep,
          dir: config.backups.dir,
          next_at: nextAt,
        },
        last: last
          ? {
              created_at: last.created_at,
              finished_at: last.finished_at,
              size_bytes: last.size_bytes,
              duration_ms: last.duration_ms,
              database: last.database,
              files: last.files,
              trigger: last.trigger,
            }
          : null,
        backups: await listBackups(config.backups.dir),
      };
    });
  });

  return {
    service,
    schedule,
    async healthState() {
      const last = await readRecord(config.backups.dir);
      return { last_at: last?.created_at ?? null, size_bytes: last?.size_bytes ?? null };
    },
    async stop() {
      if (timer) clearInterval(timer);
      await control?.close();
      await leader.close();
    },
  };
}

import pg from "pg";
import { type BackupService, backupDue } from "./service.ts";
import type { BackupRecord } from "./store.ts";

/**
 * Which process takes scheduled backups. On the embedded database there is one process. On
 * PostgreSQL every worker and `all` process asks, and the one holding a session advisory lock on
 * its own connection is the one: it keeps the lock while it lives, and when it dies its
 * connection closes and the next process to ask takes over.
 */
export interface BackupLeader {
  /** True while this process is the one that takes scheduled backups. */
  acquire(): Promise<boolean>;
  close(): Promise<void>;
}

/** Any fixed number: the advisory lock of the process that takes scheduled backups. */
export const BACKUP_LEADER_LOCK = 7_201_977;

export const soleProcess: BackupLeader = { acquire: async () => true, close: async () => {} };

export function advisoryLeader(url: string): BackupLeader {
  let client: pg.Client | null = null;
  let held = false;
  return {
    async acquire() {
      if (held && client) return true;
      try {
        if (!client) {
          const fresh = new pg.Client({ connectionString: url, application_name: "hearth-backup-leader" });
          // A lost connection loses the lock: ask again on the next tick.
          fresh.on("error", () => {
            held = false;
            client = null;
          });
          fresh.on("end", () => {
            held = false;
            client = null;
          });
          await fresh.connect();
          client = fresh;
        }
        const res = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1) as ok", [
          BACKUP_LEADER_LOCK,
        ]);
        held = res.rows[0]?.ok === true;
        return held;
      } catch {
        held = false;
        const broken = client;
        client = null;
        await broken?.end().catch(() => {});
        return false;
      }
    },
    async close() {
      const open = client;
      client = null;
      held = false;
      await open?.end().catch(() => {});
    },
  };
}

export const RETRY_AFTER_FAILURE_MS = 15 * 60_000;

/** How often the schedule looks whether a backup is due. */
export const SCHEDULE_TICK_MS = 60_000;

/**
 * The scheduled backups (HEARTH_BACKUP_EVERY, HEARTH_BACKUP_KEEP): `tick` takes one when it is
 * due and this process is the one that takes them. Runs never overlap; the clock is injected.
 */
export class BackupSchedule {
  private running: Promise<BackupRecord | null> | null = null;
  private failedAt: number | null = null;
  readonly startedAt: Date;

  constructor(
    private deps: {
      service: BackupService;
      leader: BackupLeader;
      now?: () => Date;
      log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
    },
  ) {
    this.startedAt = this.now();
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  /** Takes a backup when one is due here; answers its record, or null when none was taken. */
  tick(): Promise<BackupRecord | null> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<BackupRecord | null> {
    const { service } = this.deps;
    const everyMs = service.settings.everyMs;
    const due = async () => {
      const last = await service.last();
      return backupDue(everyMs, last ? new Date(last.created_at) : null, this.startedAt, this.now());
    };
    // A failed backup is tried again after a while, not at every tick.
    if (this.failedAt !== null && this.now().getTime() - this.failedAt < RETRY_AFTER_FAILURE_MS) return null;
    if (!(await due())) return null;
    if (!(await this.deps.leader.acquire())) return null;
    try {
      const record = await service.toFile("schedule");
      this.failedAt = null;
      this.deps.log.info(
        { file: record.file, size_bytes: record.size_bytes, duration_ms: record.duration_ms },
        "scheduled backup taken",
      );
      return record;
    } catch (err) {
      this.failedAt = this.now().getTime();
      this.deps.log.error({ err }, "scheduled backup failed; trying again in 15 minutes");
      return null;
    }
  }
}

import { rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import {
  type BackupSources,
  type BackupSummary,
  backupFileName,
  ensureDir,
  partialName,
  writeBackup,
} from "./backup.ts";
import {
  type BackupRecord,
  finishPartial,
  readRecord,
  removeStalePartials,
  rotate,
  writeRecord,
} from "./store.ts";

export interface BackupSettings {
  everyMs: number | null;
  keep: number;
  dir: string;
}

/**
 * Takes backups in this process: one at a time (a second waits for the first), each written
 * under a temporary name and renamed when whole and on disk, then recorded in the folder's
 * last-backup.json. Partial files that killed processes left are removed first.
 */
export class BackupService {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private sources: BackupSources,
    readonly settings: BackupSettings,
    private now: () => Date = () => new Date(),
  ) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => {});
    return next;
  }

  /**
   * A backup into the folder (or `file`), recorded; a scheduled one then rotates the folder.
   * Answers the record.
   */
  toFile(trigger: BackupRecord["trigger"], file?: string): Promise<BackupRecord> {
    return this.serial(async () => {
      ensureDir(this.settings.dir);
      const at = this.now();
      const target = path.resolve(file ?? path.join(this.settings.dir, backupFileName(at)));
      await removeStalePartials(path.dirname(target));
      const partial = partialName(target);
      let summary: BackupSummary;
      try {
        summary = await writeBackup(this.sources, partial, at);
        await finishPartial(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      const record = await recordBackup(this.settings.dir, target, summary, trigger, this.now());
      if (trigger === "schedule") await rotate(this.settings.dir, this.settings.keep);
      return record;
    });
  }

  /** A backup streamed to another process (the control socket); `hearth backup` records it. */
  toStream(out: Writable): Promise<BackupSummary> {
    return this.serial(() => writeBackup(this.sources, out, this.now()));
  }

  last(): Promise<BackupRecord | null> {
    return readRecord(this.settings.dir);
  }
}

export async function recordBackup(
  dir: string,
  file: string,
  summary: BackupSummary,
  trigger: BackupRecord["trigger"],
  finishedAt: Date,
): Promise<BackupRecord> {
  const record: BackupRecord = {
    file,
    size_bytes: (await stat(file)).size,
    created_at: summary.created_at,
    finished_at: finishedAt.toISOString(),
    duration_ms: summary.duration_ms,
    database: summary.database,
    files: summary.files,
    trigger,
  };
  ensureDir(dir);
  await writeRecord(dir, record);
  return record;
}

/** After this long without any backup on record (a fresh install), the first scheduled one runs. */
export const FIRST_BACKUP_AFTER_MS = 10 * 60_000;

/**
 * Whether a scheduled backup is due: `everyMs` after the last one, or, with none on record,
 * `min(everyMs, 10 minutes)` after this process started (so restarts cannot put it off forever).
 */
export function backupDue(everyMs: number | null, last: Date | null, startedAt: Date, now: Date): boolean {
  if (everyMs === null) return false;
  if (last) return now.getTime() - last.getTime() >= everyMs;
  return now.getTime() - startedAt.getTime() >= Math.min(everyMs, FIRST_BACKUP_AFTER_MS);
}

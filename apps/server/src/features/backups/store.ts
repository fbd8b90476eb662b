import { readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { fsyncPath, fsyncPathAsync } from "../../db/fsync.ts";
import { BACKUP_NAME, partialWriter } from "./backup.ts";

/**
 * The backup folder (HEARTH_BACKUP_DIR, default `$HEARTH_DATA_DIR/backups`): scheduled backups
 * and `hearth backup` without --out land here as `hearth-backup-<UTC time>.tar.gz`; beside them
 * `last-backup.json` records the last backup taken (wherever it was written), for /api/health and
 * the admin page. No database table: a restore must not forget its own record.
 */

export const RECORD_FILE = "last-backup.json";

export interface BackupRecord {
  /** Where it was written (a path on the machine that took it). */
  file: string;
  size_bytes: number;
  created_at: string;
  finished_at: string;
  duration_ms: number;
  database: "pglite" | "postgres";
  files: number;
  trigger: "schedule" | "command";
}

export async function readRecord(dir: string): Promise<BackupRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dir, RECORD_FILE), "utf8")) as BackupRecord;
    return typeof parsed.created_at === "string" && typeof parsed.size_bytes === "number" ? parsed : null;
  } catch {
    return null;
  }
}

export async function writeRecord(dir: string, record: BackupRecord): Promise<void> {
  const file = path.join(dir, RECORD_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}

export interface StoredBackup {
  name: string;
  size_bytes: number;
  /** From the name (when it was started), not the file's time. */
  created_at: string;
}

function timeOf(stamp: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` : new Date(0).toISOString();
}

/** The names in the backup folder; none while it does not exist yet. */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The finished backups in the folder, newest first (a `.partial-` file is never one). */
export async function listBackups(dir: string): Promise<StoredBackup[]> {
  const names = await namesIn(dir);
  const found: StoredBackup[] = [];
  for (const name of names) {
    const match = BACKUP_NAME.exec(name);
    if (!match?.[1]) continue;
    try {
      const info = await stat(path.join(dir, name));
      if (info.isFile()) found.push({ name, size_bytes: info.size, created_at: timeOf(match[1]) });
    } catch {
      // Removed meanwhile.
    }
  }
  return found.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/**
 * Keeps the newest `keep` backups in the folder and removes the rest (only files named like
 * Hearth's backups; an operator's other files stay). Answers the names removed.
 */
export async function rotate(dir: string, keep: number): Promise<string[]> {
  const backups = await listBackups(dir);
  const removed: string[] = [];
  for (const old of backups.slice(Math.max(1, keep))) {
    await rm(path.join(dir, old.name), { force: true });
    removed.push(old.name);
  }
  return removed;
}

/**
 * Puts a whole backup in place: its bytes reach the disk before it gets its name, and the name
 * before it is reported, so a crash leaves either no backup or a complete one.
 */
export async function finishPartial(partial: string, file: string): Promise<void> {
  await fsyncPathAsync(partial);
  await rename(partial, file);
  fsyncPath(path.dirname(file), undefined);
}

/** A partial file from another machine is left this long before it counts as abandoned. */
const FOREIGN_PARTIAL_KEPT_MS = 24 * 60 * 60 * 1000;

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes the partial files of backups whose writer was killed before it could (a partial file
 * of a process on this machine that no longer runs, or one from elsewhere untouched for a day).
 * Answers the names removed.
 */
export async function removeStalePartials(dir: string, now = Date.now()): Promise<string[]> {
  const names = await namesIn(dir);
  const removed: string[] = [];
  for (const name of names) {
    const writer = partialWriter(name);
    if (!writer || writer.pid === process.pid) continue;
    const file = path.join(dir, name);
    let stale: boolean;
    if (writer.host === hostname()) stale = processGone(writer.pid);
    else
      stale = await stat(file).then(
        (info) => now - info.mtimeMs > FOREIGN_PARTIAL_KEPT_MS,
        () => false,
      );
    if (!stale) continue;
    await rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}

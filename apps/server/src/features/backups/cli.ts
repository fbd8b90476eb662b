import { createWriteStream, existsSync, openSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import pg from "pg";
import { openFileStorage } from "../../app.ts";
import { dataDirHolder, lockDataDir, lockedMessage } from "../../cli/data-dir-lock.ts";
import { CliError } from "../../cli/errors.ts";
import type { Config } from "../../config.ts";
import { databaseTarget, openDatabase } from "../../db/client.ts";
import { type BackupSummary, backupFileName, ensureDir, partialName, writeBackup } from "./backup.ts";
import { BackupCutError, ControlUnavailableError, requestBackup } from "./control.ts";
import { MissingToolError } from "./pg-tools.ts";
import { assertSameDriver, RestoreError, restoreBackup, verifyBackup } from "./restore.ts";
import { recordBackup } from "./service.ts";
import { finishPartial, removeStalePartials } from "./store.ts";

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Operator-facing failures become CliErrors (printed without a stack). */
function explain(error: unknown): never {
  if (error instanceof CliError) throw error;
  if (
    error instanceof MissingToolError ||
    error instanceof RestoreError ||
    error instanceof ControlUnavailableError
  )
    throw new CliError(error.message);
  throw error;
}

/** A backup of this install taken in this process (Hearth is not running here, or uses PostgreSQL). */
async function backupHere(config: Config, file: string | Writable): Promise<BackupSummary> {
  const database = await openDatabase(databaseTarget(config));
  try {
    return await writeBackup(
      {
        database,
        databaseUrl: config.databaseUrl,
        storage: openFileStorage(config),
        dataDir: config.dataDir,
        version: config.version,
      },
      file,
    );
  } finally {
    await database.close();
  }
}

/** The one line an interrupted backup leaves: no stack, nothing half-written. */
export const BACKUP_INTERRUPTED = "Backup interrupted; no backup file was written.";

/** SIGINT or SIGTERM while a backup is written aborts `signal` (then the command cleans up and says so). */
function interruptions(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort(new CliError(BACKUP_INTERRUPTED));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return {
    signal: controller.signal,
    dispose() {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}

/** `work`, or the interruption if it comes first (the work is then abandoned with the process). */
function unlessInterrupted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    work.then(resolve, reject);
  });
}

/** Any failure of `hearth backup` as the one sentence the operator sees. */
function backupFailure(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof BackupCutError)
    return new CliError(`Backup interrupted: ${error.message}; no backup file was written.`);
  if (error instanceof MissingToolError || error instanceof ControlUnavailableError)
    return new CliError(error.message);
  const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0]?.replace(/\.$/, "");
  return new CliError(`Backup failed (${reason}); no backup file was written.`);
}

/**
 * Writes the backup into `partial`, opened here (0600, created new), so that nothing can create
 * it again once it is removed. Answers how it was taken.
 */
async function writePartial(config: Config, partial: string, signal: AbortSignal): Promise<string> {
  const out = () => createWriteStream(partial, { fd: openSync(partial, "wx", 0o600) });
  if (config.databaseUrl) {
    await unlessInterrupted(backupHere(config, out()), signal);
    return "PostgreSQL with pg_dump";
  }
  const holder = dataDirHolder(config.dataDir);
  if (holder?.command === "start") {
    await requestBackup(config.dataDir, out(), signal);
    return `the running Hearth (pid ${holder.pid}), online`;
  }
  if (holder) throw new CliError(lockedMessage(config.dataDir, holder, "backup"));
  const release = lockDataDir(config.dataDir, "backup");
  try {
    await unlessInterrupted(backupHere(config, out()), signal);
  } finally {
    release();
  }
  return "the data directory (Hearth is not running)";
}

/**
 * `hearth backup [--out FILE]`. On the embedded database while Hearth runs, the running server
 * takes it (over its control socket, see control.ts); when it does not run, this command opens
 * the data directory itself. On PostgreSQL it runs pg_dump beside the servers. It writes under a
 * partial name and renames the file when whole; interrupted or failed, it removes the partial
 * file and says so in one sentence. Partial files a killed run left are removed first.
 */
export async function backupCommand(config: Config, opts: { out?: string }): Promise<void> {
  const started = Date.now();
  const file = path.resolve(opts.out ?? path.join(config.backups.dir, backupFileName(new Date())));
  if (existsSync(file)) throw new CliError(`${file} already exists: choose another --out.`);
  ensureDir(path.dirname(file));
  await removeStalePartials(path.dirname(file));
  const partial = partialName(file);
  const stop = interruptions();
  try {
    const how = await writePartial(config, partial, stop.signal);
    // Read back whole before it counts: every entry against the manifest's checksums.
    const manifest = await unlessInterrupted(verifyBackup(partial), stop.signal);
    await finishPartial(partial, file);
    const record = await recordBackup(
      config.backups.dir,
      file,
      {
        created_at: manifest.created_at,
        database: manifest.database.driver,
        files: manifest.storage.files,
        duration_ms: Date.now() - started,
      },
      "command",
      new Date(),
    );
    console.log(
      `Backup written to ${file} (${formatBytes(record.size_bytes)}: the database and ${record.files} stored file${record.files === 1 ? "" : "s"}), from ${how}, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } catch (error) {
    await rm(partial, { force: true });
    throw backupFailure(stop.signal.aborted ? stop.signal.reason : error);
  } finally {
    stop.dispose();
  }
}

/** Other sessions on the database: a Hearth (or anything else) still using it. */
async function otherConnections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ n: string }>(
      "select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return Number(res.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * `hearth restore FILE`: refuses while Hearth runs on this install; checks the whole backup
 * first; keeps the data it replaces (a folder in the data directory, and on PostgreSQL a backup
 * of the database as it was) until the restore succeeded, and says where.
 */
export async function restoreCommand(config: Config, file: string, opts: { force?: boolean }): Promise<void> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new CliError(`${source} does not exist.`);
  if ((await stat(source)).isDirectory()) throw new CliError(`${source} is a folder, not a backup file.`);
  // The data directory is held even on PostgreSQL: its files and settings are replaced too.
  let release: () => void;
  try {
    release = lockDataDir(config.dataDir, "restore");
  } catch (error) {
    // Its last line (commands may run beside a PostgreSQL server) does not hold for a restore.
    if (error instanceof CliError) throw new CliError(error.message.split("\n").slice(0, 2).join("\n"));
    throw error;
  }
  try {
    let before: string | null = null;
    if (config.databaseUrl) {
      const manifest = await verifyBackup(source).catch(explain);
      try {
        assertSameDriver(config, manifest, source);
      } catch (error) {
        explain(error);
      }
      const others = await otherConnections(config.databaseUrl);
      if (others > 0 && !opts.force)
        throw new CliError(
          `${others} other connection${others === 1 ? " is" : "s are"} open on this database: stop every Hearth process using it first (or pass --force if they are not Hearth).`,
        );
      // PostgreSQL replaces its data in the restore's transaction: the database as it was is kept here.
      ensureDir(config.backups.dir);
      before = path.join(
        config.backups.dir,
        `before-restore-${backupFileName(new Date()).slice("hearth-backup-".length)}`,
      );
      const partial = partialName(before);
      try {
        await backupHere(config, partial);
        await rename(partial, before);
      } catch (error) {
        await rm(partial, { force: true });
        explain(error);
      }
    }
    const result = await restoreBackup(config, source, openFileStorage(config)).catch(explain);
    const m = result.manifest;
    console.log(
      `Restored ${source}: the backup of ${m.created_at} (Hearth ${m.hearth_version}), its database and ${result.files} stored file${result.files === 1 ? "" : "s"}.`,
    );
    if (result.asideDir)
      console.log(
        `The data it replaced is kept in ${result.asideDir}; delete it once the install looks right.`,
      );
    if (before)
      console.log(`The database as it was is kept in ${before} (restore it the same way to go back).`);
    console.log("Start Hearth again: `hearth start`.");
  } finally {
    release();
  }
}

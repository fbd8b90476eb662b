import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { contentTypeOf, type FileStorage, isValidKey } from "../../ports/storage.ts";
import { extractTar } from "./archive.ts";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  PGLITE_ENTRY,
  POSTGRES_ENTRY,
} from "./backup.ts";
import { MissingToolError, pgRestore } from "./pg-tools.ts";

/** A restore refused or failed in a way the operator can act on: printed without a stack. */
export class RestoreError extends Error {}

/**
 * Reads a backup through, checks every entry against its manifest (size and SHA-256), and
 * answers the manifest. With `dest`, the entries are extracted there too.
 */
export async function verifyBackup(file: string, dest: string | null = null): Promise<BackupManifest> {
  let read: Awaited<ReturnType<typeof extractTar>>;
  try {
    read = await extractTar(file, dest, "manifest.json");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new RestoreError(`${file} does not exist.`);
    if (code === "Z_BUF_ERROR" || /unexpected end of file/.test(String(error)))
      throw new RestoreError(
        `${file} is incomplete: it ends in the middle (cut short while written or copied?).`,
      );
    if (code === "Z_DATA_ERROR" || /incorrect header check/.test(String(error)))
      throw new RestoreError(`${file} is not a Hearth backup (not a .tar.gz file).`);
    throw new RestoreError(`${file} cannot be read as a Hearth backup: ${(error as Error).message}`);
  }
  if (!read.kept) throw new RestoreError(`${file} is not a Hearth backup (it has no manifest.json).`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(read.kept) as BackupManifest;
  } catch {
    throw new RestoreError(`${file} has a damaged manifest.json.`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError(`${file} is not a Hearth backup.`);
  if (manifest.format_version > BACKUP_FORMAT_VERSION)
    throw new RestoreError(
      `${file} was made by a newer Hearth (${manifest.hearth_version}, backup format ${manifest.format_version}): update Hearth first.`,
    );
  const found = new Map(read.entries.map((e) => [e.name, e]));
  for (const expected of manifest.entries) {
    const got = found.get(expected.name);
    if (!got || got.size !== expected.size || got.sha256 !== expected.sha256)
      throw new RestoreError(`${file} is damaged: ${expected.name} does not match its checksum.`);
  }
  return manifest;
}

/** A backup restores into the kind of database it was taken from. Answers that kind. */
export function assertSameDriver(
  config: Config,
  manifest: BackupManifest,
  file: string,
): "pglite" | "postgres" {
  const driver = config.databaseUrl ? "postgres" : "pglite";
  if (manifest.database.driver !== driver) {
    throw new RestoreError(
      manifest.database.driver === "postgres"
        ? `${file} is a backup of a PostgreSQL database, and this install uses the embedded database. Set DATABASE_URL to the PostgreSQL database to restore it into.`
        : `${file} is a backup of the embedded database, and this install uses PostgreSQL (DATABASE_URL). Unset DATABASE_URL to restore it into the data directory (${config.dataDir}).`,
    );
  }
  return driver;
}

export interface RestoreResult {
  manifest: BackupManifest;
  files: number;
  /** Where the data the restore replaced was put (embedded database, local files, settings). */
  asideDir: string | null;
}

function stamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
}

/** The data directory's entries a restore replaces, when the backup has them. */
function moves(staging: string): { from: string; to: string }[] {
  const list: { from: string; to: string }[] = [];
  const data = path.join(staging, "data");
  if (!existsSync(data)) return list;
  for (const name of readdirSync(data)) list.push({ from: path.join(data, name), to: name });
  return list;
}

/**
 * Brings the install back to the backup. Everything is checked and prepared beside the current
 * data first; only then is the current data moved aside (embedded database, local files,
 * settings into `$HEARTH_DATA_DIR/before-restore-<time>/`) and the restored data moved in. On
 * PostgreSQL the database is replaced in one transaction (a failure leaves it as it was). The
 * caller makes sure no Hearth runs on this install.
 */
export async function restoreBackup(
  config: Config,
  file: string,
  storage: FileStorage,
  now: Date = new Date(),
): Promise<RestoreResult> {
  const staging = await mkdtemp(path.join(config.dataDir, ".restore-"));
  try {
    const manifest = await verifyBackup(file, staging);
    const driver = assertSameDriver(config, manifest, file);

    // 1. The database, prepared (embedded) or restored in one transaction (PostgreSQL).
    const newDb = path.join(staging, "db");
    if (driver === "pglite") {
      await mkdir(newDb, { recursive: true, mode: 0o700 });
      await extractTar(path.join(staging, ...PGLITE_ENTRY.split("/")), newDb, null, {
        gzip: false,
        absolute: true,
      });
      await rm(path.join(staging, "database"), { recursive: true, force: true });
    } else {
      await pgRestore(
        config.databaseUrl ?? "",
        path.join(staging, ...POSTGRES_ENTRY.split("/")),
        path.join(staging, "restore.sql"),
      ).catch((error: Error) => {
        if (error instanceof MissingToolError) throw error;
        throw new RestoreError(
          `The restore into PostgreSQL failed, and the database was left as it was: ${error.message}`,
        );
      });
    }
    // Opens (so a damaged copy is found now) and brings an older backup up to this version.
    const opened = await openDatabase(
      driver === "pglite" ? { pgliteDir: newDb } : { url: config.databaseUrl ?? "" },
    );
    try {
      await opened.migrate();
    } finally {
      await opened.close();
    }

    // 2. Stored files: on S3 added back (keys name immutable content); local ones swapped below.
    const filesDir = path.join(staging, "files");
    const keys = listKeys(filesDir);
    if (storage.driver === "s3") {
      for (const key of keys) {
        await storage.put(key, await readFile(path.join(filesDir, ...key.split("/"))), contentTypeOf(key));
      }
    } else {
      await mkdir(filesDir, { recursive: true });
    }

    // 3. The swap: what is there now goes aside, the restored data comes in.
    const aside = path.join(config.dataDir, `before-restore-${stamp(now)}`);
    const swaps: { from: string; to: string }[] = [...moves(staging)];
    if (driver === "pglite") swaps.push({ from: newDb, to: "db" });
    if (storage.driver === "local")
      swaps.push({ from: filesDir, to: path.relative(config.dataDir, config.storage.filesDir) });
    const done: { current: string; kept: string | null; restored: string }[] = [];
    try {
      for (const swap of swaps) {
        const current = path.join(config.dataDir, swap.to);
        let kept: string | null = null;
        if (existsSync(current)) {
          kept = path.join(aside, swap.to);
          await mkdir(path.dirname(kept), { recursive: true, mode: 0o700 });
          await rename(current, kept);
        }
        done.push({ current, kept, restored: swap.from });
        await mkdir(path.dirname(current), { recursive: true });
        await rename(swap.from, current);
      }
    } catch (error) {
      // Put everything back as it was.
      for (const step of done.reverse()) {
        if (existsSync(step.current)) await rename(step.current, step.restored).catch(() => {});
        if (step.kept) await rename(step.kept, step.current).catch(() => {});
      }
      throw error;
    }
    return { manifest, files: keys.length, asideDir: done.some((d) => d.kept) ? aside : null };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function listKeys(dir: string): string[] {
  const keys: string[] = [];
  const walk = (rel: string) => {
    const full = rel ? path.join(dir, ...rel.split("/")) : dir;
    if (!existsSync(full)) return;
    for (const name of readdirSync(full)) {
      const key = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(full, name)).isDirectory()) walk(key);
      else if (isValidKey(key)) keys.push(key);
    }
  };
  walk("");
  return keys;
}

import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import type { Database } from "../../db/client.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { TarWriter } from "./archive.ts";
import { pgDump } from "./pg-tools.ts";

/**
 * What one backup holds (docs/backups.md), in a .tar.gz:
 *   files/<key>            every stored file (avatars, images, audio), from local disk or S3
 *   database/pglite.tar    the embedded database's data directory, taken between transactions
 *   database/postgres.dump or, on PostgreSQL, `pg_dump --format=custom` (what pg_restore reads)
 *   data/...               the data directory's settings: secret, site.json, plans.json, pages/,
 *                          the active model's choice (not the model files: they download again)
 *   manifest.json          last: what the backup is, and every entry's size and SHA-256
 */

export const BACKUP_FORMAT = "hearth-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const PGLITE_ENTRY = "database/pglite.tar";
export const POSTGRES_ENTRY = "database/postgres.dump";

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  hearth_version: string;
  created_at: string;
  database: { driver: "pglite" | "postgres"; entry: string };
  storage: { driver: "local" | "s3"; files: number };
  entries: { name: string; size: number; sha256: string }[];
}

export interface BackupSources {
  database: Database;
  /** Set on PostgreSQL: pg_dump connects itself. */
  databaseUrl: string | null;
  storage: FileStorage;
  dataDir: string;
  version: string;
}

export interface BackupSummary {
  created_at: string;
  database: "pglite" | "postgres";
  files: number;
  duration_ms: number;
}

/** Files directly in the data directory that are settings worth keeping. */
const SETTINGS_FILE = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.(json|md|txt)$|^secret$/;
/** Settings folders of the data directory (relative), walked for small files. */
const SETTINGS_DIRS = ["pages"];
const MODEL_CHOICE_FILES = ["models/active.json", "models/active-server.json"];

/** The data directory's settings, as paths relative to it. */
function settingsFiles(dataDir: string): { rel: string; size: number }[] {
  const found: { rel: string; size: number }[] = [];
  const add = (rel: string) => {
    try {
      const info = statSync(path.join(dataDir, rel));
      if (info.isFile()) found.push({ rel, size: info.size });
    } catch {
      // Not there: nothing to keep.
    }
  };
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile() && SETTINGS_FILE.test(entry.name)) add(entry.name);
  }
  for (const dir of SETTINGS_DIRS) {
    const walk = (rel: string) => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = readdirSync(path.join(dataDir, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(entry.name)) continue;
        const child = `${rel}/${entry.name}`;
        if (entry.isDirectory()) walk(child);
        else if (entry.isFile()) add(child);
      }
    };
    walk(dir);
  }
  for (const rel of MODEL_CHOICE_FILES) add(rel);
  return found;
}

/**
 * Writes one backup into `target` (a path or a stream). Stored files are copied before the
 * database and again after it (only the new ones): a file is stored before a row names it and
 * removed after no row does, so every file the database snapshot names is in the backup.
 */
export async function writeBackup(
  sources: BackupSources,
  target: string | Writable,
  at: Date = new Date(),
): Promise<BackupSummary> {
  const started = Date.now();
  const createdAt = at.toISOString();
  const tar = new TarWriter(target);
  const work = await mkdtemp(path.join(tmpdir(), "hearth-backup-"));
  const copied = new Set<string>();
  const copyFiles = async () => {
    for await (const key of sources.storage.list()) {
      if (copied.has(key)) continue;
      const file = await sources.storage.get(key);
      if (!file) continue; // removed since it was listed
      await tar.addBuffer(`files/${key}`, file.body);
      copied.add(key);
    }
  };
  try {
    await copyFiles();
    let entry: string;
    if (sources.databaseUrl) {
      entry = POSTGRES_ENTRY;
      const dump = path.join(work, "postgres.dump");
      await pgDump(sources.databaseUrl, dump);
      await tar.addFile(entry, dump, (await stat(dump)).size);
    } else {
      if (!sources.database.dumpDataDir) throw new Error("This database cannot be backed up from here.");
      entry = PGLITE_ENTRY;
      const blob = await sources.database.dumpDataDir();
      await tar.addBuffer(entry, new Uint8Array(await blob.arrayBuffer()));
    }
    await copyFiles();
    for (const { rel, size } of settingsFiles(sources.dataDir)) {
      await tar.addFile(`data/${rel}`, path.join(sources.dataDir, rel), size);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      hearth_version: sources.version,
      created_at: createdAt,
      database: { driver: sources.databaseUrl ? "postgres" : "pglite", entry },
      storage: { driver: sources.storage.driver, files: copied.size },
      entries: [...tar.entries],
    };
    await tar.addBuffer("manifest.json", Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await tar.close();
    return {
      created_at: createdAt,
      database: manifest.database.driver,
      files: copied.size,
      duration_ms: Date.now() - started,
    };
  } catch (error) {
    await tar.abort();
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `hearth-backup-20250101T060000Z.tar.gz`: sortable by name, and what rotation counts. */
export const BACKUP_NAME = /^hearth-backup-(\d{8}T\d{6}Z)(?:-[a-z0-9]+)?\.tar\.gz$/;

export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
  return `hearth-backup-${stamp}.tar.gz`;
}

/**
 * A not-yet-finished file beside `file`: renamed into place only when the backup is whole and on
 * disk. Its name says which machine and process writes it, so one left by a killed process can be
 * told from one still being written (store.ts `removeStalePartials`).
 */
export function partialName(file: string): string {
  return `${file}.partial-${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** A partial file's writer, from its name; null for any other file. */
export function partialWriter(name: string): { host: string; pid: number } | null {
  const match = /\.partial-(.+)-(\d+)-[0-9a-f]{8}$/.exec(name);
  return match?.[1] && match[2] ? { host: match[1], pid: Number(match[2]) } : null;
}

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

import { readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { CliError } from "./errors.ts";

/**
 * The embedded database (PGlite) can be open in one process only: a second process writing the
 * same files loses its changes (or the server's). `hearth start` and every command that writes
 * the database hold `$HEARTH_DATA_DIR/hearth.lock` while they run; a command finding it held by a
 * live process refuses. With DATABASE_URL nothing is locked: PostgreSQL takes many clients.
 */

export const LOCK_FILE = "hearth.lock";
/** The holder touches the file this often, so a holder elsewhere (another container) is seen as alive. */
const HEARTBEAT_MS = 10_000;
/** A lock not touched for this long is stale when its process can't be checked directly. */
const STALE_AFTER_MS = 45_000;

export interface LockHolder {
  pid: number;
  command: string;
  host: string;
  started_at: string;
}

const lockPath = (dataDir: string) => path.join(dataDir, LOCK_FILE);

function readHolder(file: string): { holder: LockHolder; touchedAt: number; raw: string } | null {
  try {
    const raw = readFileSync(file, "utf8");
    const holder = JSON.parse(raw) as LockHolder;
    if (!Number.isInteger(holder.pid)) return { holder: { ...holder, pid: 0 }, touchedAt: 0, raw };
    return { holder, touchedAt: statSync(file).mtimeMs, raw };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    // Unreadable or half-written: treat as stale rather than lock the operator out for good.
    return { holder: { pid: 0, command: "?", host: "?", started_at: "?" }, touchedAt: 0, raw: "" };
  }
}

/** A process on this machine with that pid that is a Hearth process (pids get reused). */
function processAlive(pid: number): boolean {
  if (pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("hearth");
  } catch {
    return true; // No /proc (macOS): the pid check is all there is.
  }
}

function isLive(found: { holder: LockHolder; touchedAt: number }): boolean {
  if (found.holder.host === hostname()) return processAlive(found.holder.pid);
  // Another machine or container: its pids mean nothing here, but its heartbeat does.
  return Date.now() - found.touchedAt < STALE_AFTER_MS;
}

/** The live process holding the data directory, or null when it is free (a stale file counts as free). */
export function dataDirHolder(dataDir: string): LockHolder | null {
  const found = readHolder(lockPath(dataDir));
  return found && isLive(found) ? found.holder : null;
}

export function lockedMessage(dataDir: string, holder: LockHolder, command: string): string {
  const what = holder.command === "start" ? "Hearth is running" : `\`hearth ${holder.command}\` is running`;
  return (
    `${what} on this data directory (${dataDir}, pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}, since ${holder.started_at}).\n` +
    `Stop it first, then run \`hearth ${command}\` again: the embedded database can be open in one process at a time, ` +
    "and changes made beside it would be lost.\n" +
    "(With DATABASE_URL pointing at PostgreSQL, commands can run beside the server.)"
  );
}

/**
 * Takes the data directory for `command`, or throws a CliError naming the live holder. Answers
 * a release function; the lock is also released when the process exits.
 */
export function lockDataDir(dataDir: string, command: string): () => void {
  const file = lockPath(dataDir);
  const mine: LockHolder = {
    pid: process.pid,
    command,
    host: hostname(),
    started_at: new Date().toISOString(),
  };
  const content = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      // "wx": create only if absent, so two processes can't both take it.
      writeFileSync(file, content, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const found = readHolder(file);
    if (found && isLive(found)) throw new CliError(lockedMessage(dataDir, found.holder, command));
    if (attempt >= 3)
      throw new CliError(`Could not take ${file}; remove it if no Hearth process is running.`);
    // Stale (its process is gone): remove it, unless someone replaced it meanwhile.
    if (found && readHolder(file)?.raw !== found.raw) continue;
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // Removed under us: nothing to keep fresh.
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off("exit", release);
    // Only our own file: never remove a lock another process has taken since.
    if (readHolder(file)?.raw === content) {
      try {
        unlinkSync(file);
      } catch {
        // Already gone.
      }
    }
  };
  process.on("exit", release);
  return release;
}

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";

/**
 * How `hearth backup` reaches a running Hearth on the embedded database (which only that process
 * may open): HTTP over a Unix socket, never the network. Local only and authenticated twice: the
 * socket lies in a folder only Hearth's own user may enter (0700), and every request must carry
 * the token the server wrote beside it (0600, new at each start). Nothing served on Hearth's
 * port can take or download a backup.
 */

const SOCKET = "hearth.sock";
const TOKEN = "token";
/** Unix socket paths are limited (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/** The control folder of a data directory: `$HEARTH_DATA_DIR/control`, or a private one in tmp for deep paths. */
export function controlDir(dataDir: string): string {
  const inside = path.join(dataDir, "control");
  if (path.join(inside, SOCKET).length <= MAX_SOCKET_PATH) return inside;
  const uid = process.getuid?.() ?? 0;
  const hash = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
  return path.join(tmpdir(), `hearth-${uid}-${hash}`);
}

/** Makes the folder private, or refuses a folder someone else made or opened up. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid))
    throw new Error(`${dir} is not a folder of this user: the backup control socket is not opened`);
  if ((info.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export interface ControlServer {
  close(): Promise<void>;
}

export interface ControlHandlers {
  /** Streams one backup into `out`; answers when it is whole (throws on failure). */
  backup(out: Writable): Promise<unknown>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Opens the control socket of a running server. */
export async function startControlServer(dataDir: string, handlers: ControlHandlers): Promise<ControlServer> {
  const dir = controlDir(dataDir);
  privateDir(dir);
  const token = randomBytes(32).toString("base64url");
  const tokenFile = path.join(dir, TOKEN);
  rmSync(tokenFile, { force: true });
  writeFileSync(tokenFile, token, { mode: 0o600, flag: "wx" });
  const expected = Buffer.from(`Bearer ${token}`);

  const server = http.createServer((req, res) => {
    const given = Buffer.from(String(req.headers.authorization ?? ""));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"message":"unauthorized"}');
      return;
    }
    if (req.method !== "POST" || req.url !== "/backup") {
      res.writeHead(404, { "content-type": "application/json" }).end('{"message":"not found"}');
      return;
    }
    handlers.log.info({}, "backup requested over the control socket");
    res.writeHead(200, { "content-type": "application/gzip" });
    handlers.backup(res).catch((err) => {
      handlers.log.error({ err }, "backup over the control socket failed");
      // A cut stream: the command sees an incomplete file and says the backup failed.
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  const socket = path.join(dir, SOCKET);
  // A socket left by a process that died: the data directory's lock says none runs now.
  rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
  return {
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(socket, { force: true });
      rmSync(tokenFile, { force: true });
    },
  };
}

export class ControlUnavailableError extends Error {}
/** The running server stopped sending before the backup's end (it stopped, or its backup failed). */
export class BackupCutError extends Error {}

/**
 * Asks the running server for a backup and streams it into `out`. `signal` hangs up: the server
 * sees its socket close and stops writing.
 */
export async function requestBackup(dataDir: string, out: Writable, signal?: AbortSignal): Promise<void> {
  const dir = controlDir(dataDir);
  let token: string;
  try {
    token = readFileSync(path.join(dir, TOKEN), "utf8").trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ControlUnavailableError(
      code === "EACCES"
        ? `Cannot read ${path.join(dir, TOKEN)}: run \`hearth backup\` as the user Hearth runs as.`
        : "The running Hearth has no backup control socket (is it older than this command? restart it).",
    );
  }
  await new Promise<void>((resolve, reject) => {
    const req = http.request(
      {
        socketPath: path.join(dir, SOCKET),
        path: "/backup",
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new ControlUnavailableError(`The running Hearth refused the backup (${res.statusCode}).`));
          return;
        }
        const cut = () => reject(new BackupCutError("the running Hearth stopped sending it"));
        res.on("error", cut);
        res.on("aborted", cut);
        res.pipe(out);
        out.on("error", reject);
        out.on("finish", () => (res.complete ? resolve() : cut()));
      },
    );
    signal?.addEventListener(
      "abort",
      () => {
        req.destroy();
        reject(signal.reason);
      },
      { once: true },
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        ["ENOENT", "ECONNREFUSED"].includes(error.code ?? "")
          ? new ControlUnavailableError("The running Hearth does not answer on its backup control socket.")
          : error,
      ),
    );
    req.end();
  });
}

import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../config.ts";
import { TarWriter } from "./archive.ts";
import { BACKUP_INTERRUPTED } from "./cli.ts";
import { controlDir, requestBackup, startControlServer } from "./control.ts";
import { listBackups } from "./store.ts";
import { hearthCli } from "./test-support.ts";

const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-interrupted-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A stand-in for a running Hearth on a data directory: its lock (held from another machine, so
 * its heartbeat is what counts) and its control socket, which starts a backup's stream and then
 * does what `behave` says with it.
 */
async function fakeRunningHearth(dataDir: string, behave: (res: http.ServerResponse) => void) {
  writeFileSync(
    path.join(dataDir, "hearth.lock"),
    JSON.stringify({
      pid: 1,
      command: "start",
      host: "another-machine",
      started_at: new Date().toISOString(),
    }),
  );
  const dir = controlDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(dir, "token"), "test-token", { mode: 0o600 });
  let hungUp: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  let asked: () => void = () => {};
  const requested = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const server = http.createServer((req, res) => {
    res.on("close", hungUp);
    res.writeHead(200, { "content-type": "application/gzip" });
    res.write(Buffer.alloc(64 * 1024, 1), () => {
      asked();
      behave(res);
    });
    req.resume();
  });
  server.listen(path.join(dir, "hearth.sock"));
  await once(server, "listening");
  return { requested, closed, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** `hearth backup` in a child process; answers its exit and output once it ends. */
function backupProcess(dataDir: string) {
  const child = spawn(process.execPath, [bin, "backup"], {
    env: { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: "silent", HEARTH_BACKUP_EVERY: "off" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = once(child, "exit").then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, ended };
}

describe("hearth backup interrupted", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "by %s: one sentence, no file left, and the server sees the hang-up",
    async (signal) => {
      const dataDir = tempDir();
      const server = await fakeRunningHearth(dataDir, () => {
        // Holds the stream open: the backup is under way when the signal comes.
      });
      try {
        const backup = backupProcess(dataDir);
        await server.requested;
        // The partial file is opened before the server is asked.
        expect(readdirSync(path.join(dataDir, "backups")).some((n) => n.includes(".partial-"))).toBe(true);
        backup.child.kill(signal);
        const result = await backup.ended;
        await server.closed;
        expect(result.code).toBe(1);
        expect(result.stdout).toBe("");
        expect(result.stderr).toBe(`${BACKUP_INTERRUPTED}\n`);
        expect(readdirSync(path.join(dataDir, "backups"))).toEqual([]);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it("by the running server going away: one sentence, no file left", async () => {
    const dataDir = tempDir();
    const server = await fakeRunningHearth(dataDir, (res) => res.destroy());
    try {
      const result = await backupProcess(dataDir).ended;
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        "Backup interrupted: the running Hearth stopped sending it; no backup file was written.\n",
      );
      expect(result.stderr).not.toContain("    at ");
      expect(readdirSync(path.join(dataDir, "backups"))).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a stale partial file is never listed and the next backup removes it; a live writer's stays", async () => {
    const dataDir = tempDir();
    const folder = path.join(dataDir, "backups");
    mkdirSync(folder, { recursive: true });
    const gone = spawn(process.execPath, ["-e", ""]);
    await once(gone, "exit");
    const name = "hearth-backup-20250101T000000Z.tar.gz";
    const stale = `${name}.partial-${hostname()}-${gone.pid}-0123abcd`;
    const live = `${name}.partial-${hostname()}-${process.pid}-89abcdef`;
    for (const partial of [stale, live]) writeFileSync(path.join(folder, partial), "half a backup");
    expect(await listBackups(folder)).toEqual([]);

    const backup = await hearthCli({ HEARTH_DATA_DIR: dataDir }, "backup");
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const left = readdirSync(folder);
    expect(left).not.toContain(stale);
    expect(left).toContain(live);
    expect((await listBackups(folder)).map((b) => b.name)).toEqual(
      left.filter((n) => /^hearth-backup-.*\.tar\.gz$/.test(n)),
    );
    expect(await listBackups(folder)).toHaveLength(1);
  }, 120_000);

  it("the server side stops writing when the command hangs up", async () => {
    const dataDir = tempDir();
    const log = { info: vi.fn(), error: vi.fn() };
    const logged = new Promise((resolve) => log.error.mockImplementation(resolve));
    let writing: Promise<void> = Promise.resolve();
    const control = await startControlServer(dataDir, {
      log,
      backup: (out) => {
        writing = (async () => {
          const tar = new TarWriter(out);
          // A backup that never ends on its own: only the hang-up stops it.
          for (let i = 0; ; i++) await tar.addBuffer(`files/${i}`, Buffer.alloc(256 * 1024, i));
        })();
        return writing;
      },
    });
    try {
      const hangUp = new AbortController();
      const sink = new Writable({
        write(_chunk, _encoding, done) {
          hangUp.abort(new Error("hung up"));
          done();
        },
      });
      await expect(requestBackup(dataDir, sink, hangUp.signal)).rejects.toThrow("hung up");
      await expect(writing).rejects.toThrow("closed before the end");
      expect(await logged).toMatchObject({ err: expect.any(Error) });
    } finally {
      await control.close();
    }
  }, 60_000);
});

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../src/config.ts";
import { TEST_POOL_MAX } from "./databases.ts";

/** A real `hearth start` child process, for tests of what only separate processes show (drain, scale-out). */
export interface HearthProcess {
  name: string;
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** The tail of its output, for failure messages. */
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL if still running, then its data directory removed. */
  stop(): Promise<void>;
}

const entry = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const READY_TIMEOUT_MS = 120_000;

/**
 * What every test process runs with: logs at info (the tests read them), no demo characters, no
 * first administrator, no sign-up allowance, no local model servers, listening on loopback only.
 */
export const QUIET_PROCESS_ENV = {
  HEARTH_LOG_LEVEL: "info",
  HEARTH_SEED_DEMO: "false",
  HEARTH_FIRST_USER_ADMIN: "false",
  HEARTH_SIGNUPS_PER_DAY: "0",
  HEARTH_LOCAL_SERVERS: "off",
  HOST: "127.0.0.1",
  // Test processes share one PostgreSQL (100 connections in all) with the other test files.
  HEARTH_DB_POOL: String(TEST_POOL_MAX),
} as const;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Starts `hearth start` with `env` over this process's own, on a free port and its own data
 * directory (or `dataDir`), and answers once its health check does. The process joins `procs`
 * before it is ready, so the caller's afterAll stops it even when it never gets there.
 */
export async function startHearthProcess(
  procs: HearthProcess[],
  name: string,
  env: Record<string, string>,
  dataDir = mkdtempSync(path.join(tmpdir(), `hearth-${name}-`)),
): Promise<HearthProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry, "start"], {
    cwd: repoRoot(),
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HEARTH_DATA_DIR: dataDir,
      HEARTH_WEB_DIST: path.join(dataDir, "no-web"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-64_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const proc: HearthProcess = {
    name,
    url,
    dataDir,
    child,
    exited,
    output: () => `--- ${name} on ${url} ---\n${log}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  procs.push(proc);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited before it was ready\n${proc.output()}`);
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
    if (res?.status === 200) return proc;
    if (Date.now() > deadline) throw new Error(`${name} was not ready in time\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

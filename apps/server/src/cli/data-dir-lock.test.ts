import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/databases.ts";
import { repoRoot } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { findUserByEmailOrUsername } from "../features/accounts/queries.ts";
import { dataDirHolder, LOCK_FILE, lockDataDir } from "./data-dir-lock.ts";
import { CliError } from "./errors.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dirs: string[] = [];
const children: ChildProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-lock-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A process that looks like Hearth to the pid check (its command line names hearth). */
function fakeHearth(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "/* hearth */ setInterval(() => {}, 1000)"]);
  children.push(child);
  return child;
}

function writeLock(dir: string, holder: { pid: number; host?: string; command?: string }) {
  writeFileSync(
    path.join(dir, LOCK_FILE),
    JSON.stringify({
      command: "start",
      host: hostname(),
      started_at: "2025-01-01T00:00:00.000Z",
      ...holder,
    }),
  );
}

describe("data directory lock", () => {
  it("refuses while a live process holds it, and takes it over from a dead one", async () => {
    const dir = tempDir();
    const live = fakeHearth();
    writeLock(dir, { pid: live.pid ?? 0 });
    expect(dataDirHolder(dir)?.pid).toBe(live.pid);
    expect(() => lockDataDir(dir, "user create")).toThrow(CliError);
    expect(() => lockDataDir(dir, "user create")).toThrow(/Hearth is running on this data directory/);

    live.kill("SIGKILL");
    await new Promise((done) => live.once("exit", done));
    expect(dataDirHolder(dir)).toBeNull();
    const release = lockDataDir(dir, "user create");
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8"))).toMatchObject({
      pid: process.pid,
      command: "user create",
    });
    release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it("a process that reused the pid but isn't Hearth does not hold it", () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    children.push(other);
    writeLock(dir, { pid: other.pid ?? 0 });
    expect(dataDirHolder(dir)).toBeNull();
  });

  it("trusts another machine's heartbeat only while it is fresh", () => {
    const dir = tempDir();
    writeLock(dir, { pid: 1, host: "another-container" });
    expect(dataDirHolder(dir)?.host).toBe("another-container");
    const old = new Date(Date.now() - 120_000);
    utimesSync(path.join(dir, LOCK_FILE), old, old);
    expect(dataDirHolder(dir)).toBeNull();
  });

  it("release leaves a lock someone else took alone", () => {
    const dir = tempDir();
    const release = lockDataDir(dir, "seed");
    const live = fakeHearth();
    writeLock(dir, { pid: live.pid ?? 0 });
    release();
    expect(dataDirHolder(dir)?.pid).toBe(live.pid);
  });
});

/** `hearth start` on a fresh data directory; answers once it serves, with a stop function. */
async function startHearth(env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, "start"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      HEARTH_LOG_LEVEL: "info",
      HEARTH_SEED_DEMO: "false",
      ...env,
    },
  });
  children.push(child);
  let output = "";
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split("\n")) {
        if (!line.includes('"msg":"Hearth is running"')) continue;
        resolve(String((JSON.parse(line) as { address: string }).address));
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`hearth start exited with ${code}:\n${output}`)));
  });
  const stop = async () => {
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    child.kill("SIGTERM");
    return exited;
  };
  return { address, stop };
}

const hearth = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, [bin, ...args], {
    env: { ...process.env, HEARTH_LOG_LEVEL: "silent", ...env },
    timeout: 60_000,
  }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

// Several real Hearth processes each: slow on a small shared machine, hence the longer limits.
describe("CLI beside a running Hearth", () => {
  it("on the embedded database: refuses to write while it runs, and works once it stopped", async () => {
    const dataDir = tempDir();
    const env = { HEARTH_DATA_DIR: dataDir };
    const server = await startHearth(env);

    const create = await hearth(env, "user", "create", "--email", "op@example.com", "--admin");
    expect(create.code).toBe(1);
    expect(create.stderr).toContain("Hearth is running on this data directory");
    expect(create.stderr).toContain("Stop it first, then run `hearth user create` again");
    const others = [
      ["user", "set-role", "op@example.com", "--role", "basic"],
      ["seed"],
      ["migrate"],
      ["start"],
    ];
    const refusals = await Promise.all(others.map((args) => hearth({ ...env, PORT: "0" }, ...args)));
    refusals.forEach((refused, i) => {
      expect(refused.code, others[i]?.join(" ")).toBe(1);
      expect(refused.stderr, others[i]?.join(" ")).toContain("Hearth is running on this data directory");
    });
    const use = await hearth(env, "models", "use", "hearth-tiny");
    expect(use.code).toBe(1);
    expect(use.stderr).toContain("admin Models page");

    expect(await server.stop()).toBe(0);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const created = await hearth(env, "user", "create", "--email", "op@example.com", "--admin");
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("Created administrator op@example.com");

    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    const row = await findUserByEmailOrUsername(database.db, "op@example.com");
    await database.close();
    expect(row?.isAdmin).toBe(true);
  }, 180_000);

  it("with DATABASE_URL: writes beside the running server, which sees them at once", async () => {
    const testDb = await createTestDatabase("postgres");
    try {
      const env = { HEARTH_DATA_DIR: tempDir(), DATABASE_URL: testDb.url ?? "" };
      const server = await startHearth(env);
      const password = "a long password";
      const created = await hearth(
        env,
        "user",
        "create",
        "--email",
        "pg@example.com",
        "--password",
        password,
      );
      expect(created.stdout).toContain("Created user pg@example.com");

      const signIn = await fetch(`${server.address}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.address },
        body: JSON.stringify({ email: "pg@example.com", password }),
      });
      expect(signIn.status).toBe(200);
      expect(await server.stop()).toBe(0);
    } finally {
      await testDb.drop();
    }
  }, 120_000);
});

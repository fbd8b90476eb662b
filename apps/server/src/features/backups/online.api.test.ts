import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Health } from "@hearth/contract";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TEST_POSTGRES_URL } from "../../../test/databases.ts";
import { repoRoot } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { hearthCli } from "./test-support.ts";

const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dirs: string[] = [];
const children: ChildProcess[] = [];
const tempDir = (prefix = "hearth-online-") => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `hearth start` on a data directory; answers once it serves. */
async function startHearth(env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, "start"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      HEARTH_LOG_LEVEL: "info",
      HEARTH_SEED_DEMO: "false",
      HEARTH_BACKUP_EVERY: "off",
      HEARTH_SIGNUPS_PER_DAY: "0",
      HEARTH_RATE_LIMIT: "0",
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

describe("hearth backup while Hearth runs on the embedded database", () => {
  it("the running server takes it, online, while it is written to; restore refuses until it stops", async () => {
    const dataDir = tempDir();
    const env = { HEARTH_DATA_DIR: dataDir };
    const server = await startHearth(env);
    // The control socket is private to Hearth's user: the folder 0700, the socket and token 0600.
    expect(statSync(path.join(dataDir, "control")).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dataDir, "control", "token")).mode & 0o777).toBe(0o600);

    // Accounts are written one after another, each acknowledged, while the backup runs.
    const acknowledged: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const email = `writer${i}@example.com`;
        const res = await fetch(`${server.address}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.address },
          body: JSON.stringify({ email, password: "correct horse battery", name: `Writer ${i}` }),
        });
        if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
        acknowledged.push(email);
      }
    })();
    while (acknowledged.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
    const before = acknowledged.length;
    const out = path.join(tempDir(), "online.tar.gz");
    const backup = await hearthCli(env, "backup", "--out", out);
    const after = acknowledged.length;
    writing = false;
    await writer;
    expect(backup.stderr).toBe("");
    expect(backup.stdout).toContain("from the running Hearth");
    expect(backup.stdout).toContain("online");

    // /api/health tells the last backup's time and size.
    const health = (await (await fetch(`${server.address}/api/health`)).json()) as Health;
    expect(health.backup.size_bytes).toBe(statSync(out).size);
    expect(health.backup.last_at).not.toBeNull();

    // Nothing on Hearth's port takes or hands out a backup.
    for (const url of ["/api/admin/backups", "/backup", "/api/backup"]) {
      const res = await fetch(`${server.address}${url}`, {
        method: "POST",
        headers: { origin: server.address },
      });
      expect(res.status, url).toBeGreaterThanOrEqual(400);
    }

    const refused = await hearthCli(env, "restore", out);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Hearth is running on this data directory");
    expect(refused.stderr).toContain("then run `hearth restore` again");
    expect(refused.stderr).not.toContain("can run beside the server");
    expect(await server.stop()).toBe(0);

    // Restored into a fresh data directory: every account acknowledged before the backup began
    // is there, none it could not have seen, and the database opens and checks out.
    const fresh = tempDir();
    const restore = await hearthCli({ HEARTH_DATA_DIR: fresh }, "restore", out);
    expect(restore.stderr).toBe("");
    const database = await openDatabase({ pgliteDir: path.join(fresh, "db") });
    try {
      const rows = await database.db.execute<{ email: string }>(
        sql`select email from users where email like 'writer%'`,
      );
      const emails = new Set(rows.rows.map((r) => r.email));
      for (const email of acknowledged.slice(0, before)) expect(emails.has(email), email).toBe(true);
      expect(emails.size).toBeLessThanOrEqual(after + 1);
      for (const email of emails) expect(acknowledged.slice(0, after + 1)).toContain(email);
      // Every table reads through (a damaged page would fail here), and the indexes rebuild.
      const tables = await database.db.execute<{ name: string }>(
        sql`select tablename as name from pg_tables where schemaname = 'public'`,
      );
      for (const { name } of tables.rows)
        await database.db.execute(sql.raw(`select count(*) from "${name}"`));
      await database.db.execute(sql`reindex table users`);
    } finally {
      await database.close();
    }
  }, 240_000);
});

describe("hearth backup and restore: mistakes are explained", () => {
  it("refuses what it cannot do, without a stack trace", async () => {
    const dataDir = tempDir();
    const env = { HEARTH_DATA_DIR: dataDir };

    const missing = await hearthCli(env, "restore", path.join(dataDir, "nope.tar.gz"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.tar.gz does not exist.");

    const notBackup = path.join(dataDir, "notes.tar.gz");
    writeFileSync(notBackup, "hello");
    const wrong = await hearthCli(env, "restore", notBackup);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("is not a Hearth backup");
    expect(wrong.stderr).not.toContain("    at ");

    const good = path.join(dataDir, "good.tar.gz");
    expect((await hearthCli(env, "backup", "--out", good)).code).toBe(0);
    const again = await hearthCli(env, "backup", "--out", good);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");

    const cut = path.join(dataDir, "cut.tar.gz");
    writeFileSync(cut, "");
    truncateSync(cut, 0);
    const { copyFileSync } = await import("node:fs");
    copyFileSync(good, cut);
    truncateSync(cut, Math.floor(statSync(good).size / 2));
    const damaged = await hearthCli(env, "restore", cut);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/cannot be read as a Hearth backup|incomplete|damaged/);
    // Nothing was touched: the install is as it was, no staging folder left.
    expect(
      readdirSync(dataDir).filter((n) => n.startsWith(".restore-") || n.startsWith("before-restore")),
    ).toEqual([]);

    // An embedded backup into a PostgreSQL install (and the tools missing there).
    const pgEnv = { ...env, DATABASE_URL: TEST_POSTGRES_URL };
    const mismatch = await hearthCli({ ...pgEnv, HEARTH_PG_BIN: "/nonexistent" }, "restore", good);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      "is a backup of the embedded database, and this install uses PostgreSQL",
    );
    const noTools = await hearthCli({ ...pgEnv, HEARTH_PG_BIN: "/nonexistent" }, "backup");
    expect(noTools.code).toBe(1);
    expect(noTools.stderr).toContain("`pg_dump` was not found");
    expect(noTools.stderr).toContain("postgresql-client");
    expect(readdirSync(path.join(dataDir, "backups")).filter((n) => n.includes(".partial-"))).toEqual([]);
    expect(existsSync(path.join(dataDir, "db"))).toBe(true);
  }, 240_000);
});

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { findUserByEmailOrUsername } from "../features/accounts/queries.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-cli-"));
const env = { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: "silent", NODE_ENV: "production" };

const hearth = (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 60_000 });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("hearth CLI", () => {
  it("prints help for the program and for each command", async () => {
    const top = await hearth("--help");
    for (const cmd of ["start", "migrate", "user"]) expect(top.stdout).toContain(cmd);
    expect((await hearth("user", "create", "--help")).stdout).toContain("--admin");
    expect((await hearth("user", "set-role", "--help")).stdout).toContain("--role <role>");
    expect((await hearth("start", "--help")).stdout).toContain("Migrate the database and serve");
    expect((await hearth("migrate", "--help")).stdout).toContain("Apply pending database migrations");
  });

  it("migrates, creates an admin, and sets a role", async () => {
    expect((await hearth("migrate")).stdout).toContain("Migrations applied (pglite)");
    const created = await hearth(
      "user",
      "create",
      "--email",
      "op@example.com",
      "--name",
      "Operator",
      "--admin",
    );
    expect(created.stdout).toContain("Created administrator op@example.com");
    expect(created.stdout).toMatch(/Generated password: \S{12,}/);
    const set = await hearth("user", "set-role", "op@example.com", "--role", "premium", "--status", "active");
    expect(set.stdout).toContain("role premium, status active");

    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    const row = await findUserByEmailOrUsername(database.db, "op@example.com");
    await database.close();
    expect(row).toMatchObject({ isAdmin: true, role: "premium", status: "active" });
  });

  it("explains mistakes without a stack trace", async () => {
    const missing = await hearth("user", "set-role", "nobody@example.com", "--role", "basic").catch((e) => e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No user with email or username "nobody@example.com"');
    const badRole = await hearth("user", "set-role", "op@example.com", "--role", "emperor").catch((e) => e);
    expect(badRole.stderr).toContain("Allowed choices are free, minimal, basic, premium");
    const nothing = await hearth("user", "set-role", "op@example.com").catch((e) => e);
    expect(nothing.stderr).toContain("Nothing to change");
    const badEnv = await run(process.execPath, [bin, "migrate"], { env: { ...env, PORT: "banana" } }).catch(
      (e) => e,
    );
    expect(badEnv.stderr).toContain("Invalid configuration");
    expect(badEnv.stderr).toContain("PORT");
  });
});

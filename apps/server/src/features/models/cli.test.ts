import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../config.ts";
import { readActiveModel } from "./store.ts";
import { closedPort, type GgufTestServer, startGgufServer } from "./test-gguf-server.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");
const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-models-cli-"));
const env = { ...process.env, HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: "silent", NODE_ENV: "production" };
const hearth = (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 60_000 });
/** Runs a command that must fail; returns the execFile error (code, stdout, stderr). */
const hearthFails = (...args: string[]) =>
  hearth(...args).then(
    () => {
      throw new Error(`hearth ${args.join(" ")} succeeded`);
    },
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

let server: GgufTestServer;
beforeAll(async () => {
  server = await startGgufServer();
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("hearth models", () => {
  it("prints help with examples for each command", async () => {
    expect((await hearth("--help")).stdout).toContain("models");
    const group = (await hearth("models", "--help")).stdout;
    for (const cmd of ["pull", "list", "use", "remove"]) expect(group).toContain(cmd);
    const pull = (await hearth("models", "pull", "--help")).stdout;
    expect(pull).toContain("--name <id>");
    expect(pull).toContain("--use");
    expect(pull).toContain("Examples:");
    for (const cmd of ["list", "use", "remove"]) {
      expect((await hearth("models", cmd, "--help")).stdout).toMatch(/Examples?:/);
    }
  });

  it("pulls a model from a URL, makes it active and lists it", async () => {
    const url = server.url("/x.gguf");
    const pulled = await hearth("models", "pull", url, "--name", "test-model", "--use");
    const file = path.join(dataDir, "models", "test-model.gguf");
    expect(pulled.stdout).toContain(`Saved test-model (3.1 MB, size checked, no sha256 published): ${file}`);
    expect(pulled.stdout).toContain("Active model: test-model");
    // Not a terminal: progress comes as plain lines, the last at 100%.
    expect(pulled.stderr).toContain(`Downloading test-model\n  from ${url}\n  to   ${file}`);
    const lines = pulled.stderr.match(/^ *\d+% +[\d.]+\/3\.1 MB/gm) ?? [];
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(pulled.stderr).toMatch(/^100% +3\.1\/3\.1 MB/m);
    expect(readFileSync(file).equals(server.file)).toBe(true);
    expect(readActiveModel(dataDir)).toEqual({ id: "test-model", path: file });

    const list = (await hearth("models", "list")).stdout;
    expect(list).toMatch(/^\* +test-model +downloaded +3\.1 MB/m);
    expect(list).toMatch(/^ +qwen2\.5-1\.5b-instruct +available +~1\.12 GB +8K +Apache-2\.0/m);
    expect(list).toMatch(/^ +hearth-tiny +(bundled|missing)/m);
    expect(list).toContain(`* active: ${file}`);

    const again = await hearth("models", "pull", url, "--name", "test-model");
    expect(again.stdout).toContain("test-model is already downloaded");
  });

  it("fails with the catalog for an unknown name", async () => {
    const error = await hearthFails("models", "pull", "no-such-model");
    expect(error.code).toBe(1);
    expect(error.stderr).toContain('Unknown model "no-such-model"');
    for (const id of [
      "qwen2.5-1.5b-instruct",
      "qwen2.5-3b-instruct",
      "llama-3.2-1b-instruct",
      "mistral-nemo-instruct",
    ]) {
      expect(error.stderr).toContain(id);
    }
    expect(error.stderr).not.toMatch(/\n\s+at /);
  });

  it("explains an unreachable host and a missing file", async () => {
    const port = await closedPort();
    const offline = await hearthFails("models", "pull", `http://127.0.0.1:${port}/y.gguf`);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain(`Could not reach 127.0.0.1:${port} (ECONNREFUSED). Are you offline?`);
    const missing = await hearthFails("models", "pull", server.url("/gone.gguf"));
    expect(missing.stderr).toContain("Not found (HTTP 404)");
    expect(existsSync(path.join(dataDir, "models", "gone.gguf"))).toBe(false);
  });

  it("removes a model and clears it as active", async () => {
    const removed = await hearth("models", "remove", "test-model");
    expect(removed.stdout).toContain("Removed test-model.");
    expect(removed.stdout).toContain("It was the active model");
    expect(readActiveModel(dataDir)).toBeNull();
    const again = await hearthFails("models", "remove", "test-model");
    expect(again.stderr).toContain('No downloaded model "test-model"');
  });
});

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./config.ts";

describe("hearth start", () => {
  it("serves on the configured port with the demo characters, logs JSON, and exits cleanly on SIGTERM", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-start-"));
    const child = spawn(process.execPath, [path.join(repoRoot(), "apps/server/bin/hearth.mjs"), "start"], {
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        HEARTH_DATA_DIR: dataDir,
        HEARTH_LOG_LEVEL: "info",
      },
    });
    const lines: Record<string, unknown>[] = [];
    let buffer = "";
    const running = new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
          const line = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
          buffer = buffer.slice(nl + 1);
          lines.push(line);
          if (line.msg === "Hearth is running") resolve(String(line.address));
        }
      });
      child.on("exit", (code) => reject(new Error(`exited early with ${code}`)));
    });
    const address = await running;
    const health = await fetch(`${address}/api/health`);
    expect(health.status).toBe(200);
    // A fresh install has the demo characters to browse.
    const browse = (await (await fetch(`${address}/api/characters`)).json()) as {
      characters: { name: string }[];
    };
    expect(browse.characters.length).toBeGreaterThanOrEqual(6);
    // A request log line carries no cookie, even when the request had one.
    await fetch(`${address}/api/me`, { headers: { cookie: "hearth.session_token=secret-value" } });

    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.msg === "shutting down" && l.signal === "SIGTERM")).toBe(true);
    expect(JSON.stringify(lines)).not.toContain("secret-value");
    rmSync(dataDir, { recursive: true, force: true });
  });
});

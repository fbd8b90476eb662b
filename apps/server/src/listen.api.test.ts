import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type HearthProcess, QUIET_PROCESS_ENV, startHearthProcess } from "../test/hearth-process.ts";
import { LISTEN_BACKLOG } from "./main.ts";

/**
 * `hearth start` listens with a backlog for a burst of connections (main.ts LISTEN_BACKLOG), not
 * Node's 511: read back from the kernel, where a listening socket's Send-Q is its backlog.
 */
describe("the listening socket", () => {
  const procs: HearthProcess[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
  });

  it("holds a burst of connections beyond Node's default backlog", async () => {
    const proc = await startHearthProcess(procs, "listen", {
      ...QUIET_PROCESS_ENV,
      HEARTH_SECRET: randomBytes(32).toString("hex"),
      DATABASE_URL: "",
      REDIS_URL: "",
    });
    const port = new URL(proc.url).port;
    const line = execFileSync("ss", ["-lntH", `sport = :${port}`], { encoding: "utf8" }).trim();
    const backlog = Number(line.split(/\s+/)[2]);
    const cap = Number(readFileSync("/proc/sys/net/core/somaxconn", "utf8"));
    expect(backlog).toBe(Math.min(LISTEN_BACKLOG, cap));
    expect(backlog).toBeGreaterThan(511);
  });
});

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../config.ts";

const run = promisify(execFile);
const bin = path.join(repoRoot(), "apps/server/bin/hearth.mjs");

/** Runs a `hearth` command in a child process; answers its exit code and output. */
export const hearthCli = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, [bin, ...args], {
    env: { ...process.env, HEARTH_LOG_LEVEL: "silent", HEARTH_BACKUP_EVERY: "off", ...env },
    timeout: 120_000,
  }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );

#!/usr/bin/env node
// `npm start`: makes a fresh checkout runnable (dependencies, web build), then starts Hearth.
// Uses only Node built-ins, because it runs before `npm ci` has installed anything.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Hearth needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}

function run(cmd, args) {
  console.log(`> ${cmd} ${args.join(" ")}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const installed = path.join(root, "node_modules/.package-lock.json");
if (
  !existsSync(installed) ||
  statSync(installed).mtimeMs < statSync(path.join(root, "package-lock.json")).mtimeMs
) {
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}

const webIndex = path.join(root, "apps/web/dist/index.html");
const webSources = [path.join(root, "apps/web/src"), path.join(root, "packages/contract/src")];
if (!existsSync(webIndex) || statSync(webIndex).mtimeMs < Math.max(...webSources.map(newestMtime))) {
  run("npm", ["run", "build"]);
}

const server = spawn(process.execPath, [path.join(root, "apps/server/bin/hearth.mjs"), "start"], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

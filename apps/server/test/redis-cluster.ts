import { execFile, spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type RedisTarget, redisTarget } from "../src/adapters/redis-connect.ts";
import { TEST_REDIS_URL } from "./databases.ts";

/**
 * A real Redis Cluster for tests: three masters started from the machine's `redis-server` on
 * free ports, joined by `redis-cli --cluster create`, kept for the test process and stopped
 * when it exits. `HEARTH_REDIS_CLUSTER=true` installs run on one of these.
 */

const run = promisify(execFile);
const NODES = 3;

/** A port free for a node and for its cluster bus (the port + 10000), and not one of `taken`'s. */
async function freeNodePort(taken: number[]): Promise<number> {
  const listens = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.some((other) => Math.abs(other - port) % 10_000 === 0)) continue;
    if ((await listens(port)) && (await listens(port + 10_000))) return port;
  }
}

async function clusterInfo(port: number): Promise<string> {
  const { stdout } = await run("redis-cli", ["-p", String(port), "cluster", "info"]);
  return stdout;
}

async function startCluster(): Promise<RedisTarget> {
  const dir = mkdtempSync(path.join(tmpdir(), "hearth-redis-cluster-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const ports: number[] = [];
  const log = openSync(path.join(dir, "redis.log"), "a");
  for (let i = 0; i < NODES; i++) {
    const port = await freeNodePort(ports);
    ports.push(port);
    const nodeDir = path.join(dir, String(port));
    mkdirSync(nodeDir);
    // Through a shell that holds a pipe from this process: when this process ends, however it
    // ends (a test runner kills its workers), the pipe closes and the shell stops the node.
    const child = spawn(
      "sh",
      [
        "-c",
        'redis-server "$@" & node=$!; cat > /dev/null; kill -9 "$node"',
        "sh",
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-node-timeout",
        "5000",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        nodeDir,
      ],
      { stdio: ["pipe", log, log] },
    );
    // Neither the node nor its pipe keeps this process alive.
    child.unref();
    (child.stdin as Socket | null)?.unref();
  }
  closeSync(log);
  // Each node answers before the cluster is made of them.
  for (const port of ports) {
    for (let tries = 0; ; tries++) {
      const answer = await run("redis-cli", ["-p", String(port), "ping"]).catch(() => ({ stdout: "" }));
      if (answer.stdout.trim() === "PONG") break;
      if (tries > 1200) throw new Error(`redis-server on ${port} never answered (log: ${dir}/redis.log)`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await run("redis-cli", [
    "--cluster",
    "create",
    ...ports.map((port) => `127.0.0.1:${port}`),
    "--cluster-replicas",
    "0",
    "--cluster-yes",
  ]);
  // Every node agrees on the slots before a client is given the cluster (a minute at most: the
  // nodes gossip, slower on a loaded machine).
  for (const port of ports) {
    for (let tries = 0; !(await clusterInfo(port)).includes("cluster_state:ok"); tries++) {
      if (tries > 1200) throw new Error(`the Redis Cluster node on ${port} never reported cluster_state:ok`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url: ports.map((port) => `redis://127.0.0.1:${port}`).join(","), cluster: true };
}

let started: Promise<RedisTarget> | null = null;

/** The test process's Redis Cluster, started on first use. */
export function testRedisCluster(): Promise<RedisTarget> {
  started ??= startCluster();
  started.catch(() => {
    started = null;
  });
  return started;
}

/** Each kind of Redis an install may use: the machine's server, or this process's cluster. */
export const redisKinds = {
  "a Redis server": async (): Promise<RedisTarget> => redisTarget(TEST_REDIS_URL),
  "a Redis Cluster": testRedisCluster,
};
export type RedisKind = keyof typeof redisKinds;

/** The settings that put an install on that Redis. */
export const redisSettings = (target: RedisTarget): Record<string, string> => ({
  REDIS_URL: target.url,
  ...(target.cluster ? { HEARTH_REDIS_CLUSTER: "true" } : {}),
});

// Counts what a Hearth process sends while a benchmark measures (issue 15 item 4): PostgreSQL
// statements (by their first words), Redis commands and socket writes. Counting beats timing on
// shared virtual machines, where the same build's CPU per reply varies by a third between runs.
// Preloaded into the server by `HEARTH_BENCH_COUNTS=1 npx tsx bench/accept-cpu.ts`, which sends
// SIGUSR2 as its measured phase starts and ends; the phase's counts are written as JSON to
// HEARTH_BENCH_COUNTS_FILE when it ends.
const { writeFileSync } = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const { createRequire } = require("node:module");

// The server's own copies of the drivers (its node_modules), not whatever this file resolves.
const serverRequire = createRequire(path.join(process.cwd(), "apps/server/package.json"));
let counting = false;
let counts = { statements: {}, statementTotal: 0, redis: {}, redisTotal: 0, socketWrites: 0, writesTo: {} };
const bump = (map, key) => {
  map[key] = (map[key] ?? 0) + 1;
};

const pg = serverRequire("pg");
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  if (counting) {
    const text = typeof config === "string" ? config : (config?.text ?? "");
    // A statement's shape: its first words, or the function it calls.
    const called = /from (hearth_\w+)/.exec(text)?.[1];
    const shape = called ?? text.replace(/\s+/g, " ").trim().slice(0, 60);
    bump(counts.statements, shape);
    counts.statementTotal += 1;
  }
  return query.call(this, config, ...rest);
};

const { Redis } = serverRequire("ioredis");
const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (command, ...rest) {
  if (counting && command?.name) {
    bump(counts.redis, command.name);
    counts.redisTotal += 1;
  }
  return sendCommand.call(this, command, ...rest);
};

// Every socket write, one or many buffers, goes through _writeGeneric (_writev calls it too, so
// wrapping both counted a corked write twice).
{
  const original = net.Socket.prototype._writeGeneric;
  net.Socket.prototype._writeGeneric = function (...args) {
    if (counting) {
      counts.socketWrites += 1;
      // Which peer: PostgreSQL and Redis by port, else the HTTP client or a pipe (the log).
      const port = this.remotePort;
      bump(counts.writesTo, port === 5432 ? "postgres" : port === 6379 ? "redis" : port ? "http" : "pipe");
    }
    return original.apply(this, args);
  };
}

process.on("SIGUSR2", () => {
  if (!counting) {
    counts = { statements: {}, statementTotal: 0, redis: {}, redisTotal: 0, socketWrites: 0, writesTo: {} };
    counting = true;
    return;
  }
  counting = false;
  writeFileSync(process.env.HEARTH_BENCH_COUNTS_FILE ?? "hearth-call-counts.json", JSON.stringify(counts));
});

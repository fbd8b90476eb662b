import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEST_REDIS_URL } from "../../test/databases.ts";
import type { EventBus } from "../ports/bus.ts";
import { MemoryEventBus } from "./memory-bus.ts";
import { RedisEventBus } from "./redis-bus.ts";

/**
 * A held append (issue 15 item 4): the accept appends its reply's `started` and reads the stream
 * from there at once. On Redis the append's own script call joins the reader set, so the read
 * starts with no command of its own; these check that nothing is lost that way.
 */
const prefix = () => `hearth-test-${randomBytes(4).toString("hex")}`;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

/** Reads `stream` after `after` until an event `last` arrives; the data in order. */
async function readUntil(bus: EventBus, stream: string, after: string, last: string) {
  const c = new AbortController();
  const got: string[] = [];
  for await (const e of bus.read<string>(stream, after, c.signal)) {
    got.push(e.data);
    if (e.data === last) c.abort();
  }
  return got;
}

describe.each([
  ["in-process", () => new MemoryEventBus()],
  ["redis", () => new RedisEventBus(TEST_REDIS_URL, prefix())],
] as const)("a held append (%s)", (_kind, make) => {
  it("is read from its own id on, with every event after it", async () => {
    const bus = make();
    open.push(bus);
    const started = await bus.append("held", "started", { hold: true });
    const reading = readUntil(bus, "held", started, "done");
    for (const data of ["a", "b", "done"]) await bus.append("held", data);
    expect(await reading).toEqual(["a", "b", "done"]);
  });
});

describe("a held append on Redis", () => {
  const pair = (holdMs?: number) => {
    const shared = prefix();
    const here = new RedisEventBus(TEST_REDIS_URL, shared, holdMs);
    const there = new RedisEventBus(TEST_REDIS_URL, shared);
    const raw = new Redis(TEST_REDIS_URL);
    open.push(here, there, { close: async () => raw.disconnect() });
    return { here, there, raw, readers: (stream: string) => raw.smembers(`${shared}:bus:${stream}:readers`) };
  };

  /** The commands `bus` sends from now on, by name. */
  function commandsOf(bus: RedisEventBus) {
    const commands = (bus as unknown as { commands: Redis }).commands;
    const send = commands.sendCommand.bind(commands);
    const sent: string[] = [];
    commands.sendCommand = ((command: { name: string }, ...rest: never[]) => {
      sent.push(command.name);
      return send(command as never, ...rest);
    }) as typeof commands.sendCommand;
    return sent;
  }

  it("joins the reader set in its own script call, so another process's events reach the read, which sends nothing to start", async () => {
    const { here, there, readers } = pair();
    // Connected, and the script loaded: what is counted below is the held append's alone.
    await here.append("warm", "up");
    const sent = commandsOf(here);
    const started = await here.append("h", "started", { hold: true });
    // One script call: the append, and this process in the stream's reader set.
    expect(sent).toEqual(["evalsha"]);
    expect(await readers("h")).toHaveLength(1);
    const reading = readUntil(here, "h", started, "done");
    await there.append("h", "token");
    await there.append("h", "done");
    expect(await reading).toEqual(["token", "done"]);
    // No join, no first read of the stream: only the leave once the read ended.
    await vi.waitFor(async () => expect(await readers("h")).toEqual([]));
    expect(sent).toEqual(["evalsha", "srem"]);
  });

  it("reads the stream for an event that arrived between the append and the read", async () => {
    const { here, there } = pair();
    const started = await here.append("late", "started", { hold: true });
    // Announced to this process (it is a reader) while no read of it is open yet: the stream's
    // last event, so no later one would show the read a gap.
    await there.append("late", "done");
    await here.ping();
    expect(await readUntil(here, "late", started, "done")).toEqual(["done"]);
  }, 10_000);

  it("lets go of a hold no read takes up", async () => {
    const { here, readers } = pair(50);
    await here.append("dropped", "started", { hold: true });
    expect(await readers("dropped")).toHaveLength(1);
    await vi.waitFor(async () => expect(await readers("dropped")).toEqual([]));
    // Not a reader any more: a later read registers as any other.
    const sent = commandsOf(here);
    const c = new AbortController();
    const reading = here.read<string>("dropped", "0", c.signal)[Symbol.asyncIterator]().next();
    expect((await reading).value?.data).toBe("started");
    expect(sent).toEqual(["sadd", "expire", "xrange"]);
    c.abort();
  });
});

// Pieces of bench/concurrency.ts: Hearth processes, their CPU, and a client that measures
// how long Hearth held each token of a stand-in model's stream.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { epochMs } from "./steady-openai-server.ts";

export interface HearthProcess {
  child: ChildProcess;
  base: string;
  /** CPU seconds (user + system) the process has used so far. */
  cpu(): number;
  stop(): Promise<void>;
}

/**
 * A real `hearth start` process (root: which checkout's server to run; nodeArgs: flags for node
 * itself, such as --cpu-prof); resolves once it serves.
 */
export async function startHearth(
  root: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  /** What to run instead of `hearth start` (bench/relay-floor.ts, the floor). */
  command: string[] = [path.join(root, "apps/server/bin/hearth.mjs"), "start"],
): Promise<HearthProcess> {
  const child = spawn(process.execPath, [...nodeArgs, ...command], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HEARTH_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const base = await new Promise<string>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-20_000);
      const match = out.match(/"address":"(http:\/\/[^"]+)".*"msg":"Hearth is running"/);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.on("exit", (code) => reject(new Error(`hearth exited with ${code}: ${out.slice(-3000)}`)));
  });
  let stopping = false;
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`hearth ${child.pid} exited (${code ?? signal}): ${out.slice(-3000)}`);
  });
  return {
    child,
    base,
    cpu: () => cpuSeconds(child.pid as number),
    async stop() {
      if (child.exitCode !== null) return;
      stopping = true;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * CPU seconds so far of the Redis server on this machine (the benchmark's Redis is local), or
 * NaN when none is found: the bus's tokens cost Redis too, and on a shared machine its CPU is
 * taken from the same cores.
 */
export function redisCpu(): number {
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      if (comm === "redis-server") return cpuSeconds(Number(pid));
    }
  } catch {
    // No /proc: not Linux.
  }
  return Number.NaN;
}

/** utime + stime from /proc (Linux), in seconds. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface Client {
  base: string;
  cookie: string;
  conversationId: string;
}

/** A guest with one conversation with the character, on the given process. */
export async function newClient(base: string, characterId: string): Promise<Client> {
  const signIn = await fetch(`${base}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: "{}",
  });
  if (!signIn.ok) throw new Error(`guest sign-in: ${signIn.status} ${await signIn.text()}`);
  const cookie = (signIn.headers.getSetCookie?.() ?? [String(signIn.headers.get("set-cookie"))])
    .map((c) => c.split(";")[0])
    .join("; ");
  const created = await fetch(`${base}/api/conversations`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: base },
    body: JSON.stringify({ character_id: characterId }),
  });
  if (!created.ok) throw new Error(`conversation: ${created.status} ${await created.text()}`);
  const { conversation } = (await created.json()) as { conversation: { id: string } };
  return { base, cookie, conversationId: conversation.id };
}

export interface StreamResult {
  ok: boolean;
  tokens: number;
  /** ms from sending the request to the first token's arrival. */
  firstTokenMs: number;
  /** Per token: arrival minus the moment the stand-in sent it (ms). */
  held: number[];
  error?: string;
}

const STAMP = /w\d+@([\d.]+)/g;

/** Sends one message and reads its event stream to the end, timing every token. */
export async function stream(client: Client, signal: AbortSignal): Promise<StreamResult> {
  const started = epochMs();
  const held: number[] = [];
  let first = Number.NaN;
  let end = "";
  try {
    const res = await fetch(`${client.base}/api/generate`, {
      method: "POST",
      headers: { cookie: client.cookie, "content-type": "application/json", origin: client.base },
      body: JSON.stringify({ conversation_id: client.conversationId, action: "send", content: "Go" }),
      signal,
    });
    if (!res.ok || !res.body)
      return { ok: false, tokens: 0, firstTokenMs: Number.NaN, held, error: `${res.status}` };
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const arrived = epochMs();
      buffer += decoder.decode(chunk, { stream: true });
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf("\n\n");
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        if (!data) continue;
        const event = JSON.parse(data.slice(6)) as { type: string; text?: string; code?: string };
        if (event.type === "token") {
          if (Number.isNaN(first)) first = arrived - started;
          for (const m of (event.text ?? "").matchAll(STAMP)) held.push(arrived - Number(m[1]));
        } else if (event.type === "done" || event.type === "error") end = event.code ?? event.type;
      }
      if (end) break;
    }
  } catch (error) {
    // fetch's own message ("fetch failed") hides the cause: a reset, a refused connection, a timeout.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    end = [String((error as Error).message ?? error), cause?.code ?? cause?.message]
      .filter(Boolean)
      .join(": ");
  }
  return {
    ok: end === "done",
    tokens: held.length,
    firstTokenMs: first,
    held,
    error: end === "done" ? undefined : end,
  };
}

/** The value below which `p` of the values fall (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/** The stand-in model in its own process: its CPU is neither Hearth's nor the client's. */
export async function startStandIn(
  intervalMs: number,
  tokens: number,
): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(import.meta.dirname, "steady-openai-server.ts"),
      String(intervalMs),
      String(tokens),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the stand-in exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

/** The first character a guest may chat with (the seeded demo characters). */
export async function firstCharacter(p: HearthProcess): Promise<string> {
  const res = await fetch(`${p.base}/api/characters`);
  const body = (await res.json()) as { characters?: { id: string }[]; items?: { id: string }[] };
  const id = (body.characters ?? body.items ?? [])[0]?.id;
  if (!id) throw new Error(`no character to chat with: ${JSON.stringify(body).slice(0, 300)}`);
  return id;
}

/**
 * A models file naming the stand-in at `url`, with slots above any level measured (the limit
 * measured is Hearth's, not a queue's), and the settings that take the daily and rate limits
 * off, for a benchmark's Hearth processes.
 */
export function standInEnv(url: string): Record<string, string> {
  const modelsFile = path.join(mkdtempSync(path.join(tmpdir(), "hearth-bench-")), "models.json");
  writeFileSync(
    modelsFile,
    JSON.stringify({
      models: [
        {
          id: "steady",
          name: "Steady",
          slots: 4000,
          backend: { type: "openai", base_url: url, model: "steady" },
        },
      ],
    }),
  );
  return {
    HEARTH_MODELS_FILE: modelsFile,
    HEARTH_DAILY_LIMIT_GUEST: "0",
    HEARTH_DAILY_LIMIT_FREE: "0",
    HEARTH_RATE_LIMIT: "0",
    HEARTH_GUEST_SIGNINS_PER_DAY: "0",
    HEARTH_SECRET: randomBytes(24).toString("hex"),
    HEARTH_SEED_DEMO: "true",
  };
}

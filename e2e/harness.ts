import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { embeddedTemplatePath } from "../apps/server/test/databases.ts";
import { watchA11y } from "./a11y.ts";

/**
 * End-to-end harness: a real Hearth process on a free port with a throwaway data directory,
 * and Debian's Chromium driven by playwright-core (`npx playwright install` can't work here).
 */

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const webDir = join(repoRoot, "apps/web");
const serverEntry = join(repoRoot, "apps/server/bin/hearth.mjs");

const healthTimeoutMs = 90_000;
const stopTimeoutMs = 10_000;
/** Keep the tail of the server's output for failure reports, not all of it. */
const outputLimit = 64_000;

export const chromiumPath = process.env.HEARTH_E2E_CHROMIUM ?? "/usr/bin/chromium";
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// ---------------------------------------------------------------------------------------------
// Web build

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/**
 * Builds the web client unless apps/web/dist is newer than everything it is built from.
 * HEARTH_E2E_BUILD=always forces a build, =never skips it.
 */
export function ensureWebBuild(): void {
  const mode = process.env.HEARTH_E2E_BUILD ?? "auto";
  if (mode === "never") return;
  const builtAt = newestMtime(join(webDir, "dist/index.html"));
  const inputs = ["src", "public", "index.html", "vite.config.ts", "package.json"].map((name) =>
    join(webDir, name),
  );
  inputs.push(join(repoRoot, "packages/contract/src"));
  const sourcesAt = Math.max(...inputs.map(newestMtime));
  if (mode !== "always" && builtAt > sourcesAt) return;

  // vitest sets NODE_ENV=test, which would make Vite build a development bundle.
  const result = spawnSync("npm", ["run", "build"], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    throw new Error(`npm run build failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Server

export interface HearthServer {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  dataDir: string;
  /** What the server printed so far (tail), for assertions and failure reports. */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once("exit", () => done()));
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + healthTimeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `Hearth exited before it was healthy (code ${child.exitCode}, signal ${child.signalCode}).\n${output()}`,
      );
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) return;
      lastProblem = `status ${response.status}: ${(await response.text()).slice(0, 500)}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((wait) => setTimeout(wait, 250));
  }
  throw new Error(`Hearth was not healthy after ${healthTimeoutMs / 1000}s (${lastProblem}).\n${output()}`);
}

/**
 * A throwaway data directory. Its database is a copy of a migrated empty one (global-setup.ts
 * makes it): PGlite making a cluster and running every migration took each server 4-5 s of
 * CI's two cores. `empty`: nothing in it, as a new install starts (first-run.test.ts).
 */
export function createDataDir({ empty = false }: { empty?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "hearth-e2e-"));
  const template = embeddedTemplatePath();
  if (!empty && existsSync(template)) cpSync(template, join(dir, "db"), { recursive: true });
  return dir;
}

function serverEnv(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HEARTH_DATA_DIR: dataDir,
    HEARTH_LOG_LEVEL: "warn",
    HEARTH_SEED_DEMO: "false",
    // Tests sign up plain members; the ones about the first administrator turn this back on.
    HEARTH_FIRST_USER_ADMIN: "false",
    // Every test's accounts come from 127.0.0.1; the per-address allowance has its API test.
    HEARTH_SIGNUPS_PER_DAY: "0",
    ...extra,
  };
}

let usernameCount = 0;

/**
 * A fresh username from a prefix (its letters, digits, _ and -, lowercased), unique within the
 * run and across runs on one database: members without one are sent to onboarding (/welcome).
 * At most 20 characters and at least 4, as the original sign-up asks.
 */
export function uniqueUsername(prefix: string): string {
  usernameCount += 1;
  const tail = `_${Date.now().toString(36)}${usernameCount.toString(36)}`;
  const head = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "")
    .slice(0, 20 - tail.length);
  return `${head || "member"}${tail}`;
}

/**
 * Creates an administrator with the CLI. Call it before the server starts: the embedded database
 * allows one process at a time.
 */
export function createAdmin(
  dataDir: string,
  admin: { email: string; password: string; name: string; username?: string },
): void {
  runCli(dataDir, [
    "user",
    "create",
    "--email",
    admin.email,
    "--password",
    admin.password,
    "--name",
    admin.name,
    "--username",
    admin.username ?? uniqueUsername(admin.name),
    "--admin",
  ]);
}

/** A member on an active paid plan (premium sees every chat dialog), made before the server starts. */
export function createSubscriber(
  dataDir: string,
  member: { email: string; password: string; name: string; username?: string },
  role: "minimal" | "basic" | "premium" = "premium",
): void {
  runCli(dataDir, [
    "user",
    "create",
    "--email",
    member.email,
    "--password",
    member.password,
    "--name",
    member.name,
    "--username",
    member.username ?? uniqueUsername(member.name),
  ]);
  runCli(dataDir, ["user", "set-role", member.email, "--role", role, "--status", "active"]);
}

/**
 * Runs a `hearth` CLI command against a data directory, e.g. to create an admin before the
 * server starts (the embedded database is opened by one process at a time).
 */
export function runCli(dataDir: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, [serverEntry, ...args], {
    cwd: repoRoot,
    env: serverEnv(dataDir, env),
    encoding: "utf8",
    timeout: healthTimeoutMs,
  });
  if (result.status !== 0) {
    throw new Error(
      `hearth ${args.join(" ")} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

export interface StartOptions {
  /** Variables to add or override (for example HEARTH_GUESTS=false). */
  env?: Record<string, string>;
  /** An existing data directory (from createDataDir); a fresh one by default. Removed on stop. */
  dataDir?: string;
  /** A data directory with nothing in it, as a new install's (without `dataDir`). */
  emptyDataDir?: boolean;
}

/** Starts `hearth start` on a free port and waits until GET /api/health answers 200. */
export async function startServer(options: StartOptions = {}): Promise<HearthServer> {
  if (!existsSync(join(webDir, "dist/index.html"))) {
    throw new Error("apps/web/dist is missing: e2e/global-setup.ts builds it (or run `npm run build`).");
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? createDataDir({ empty: options.emptyDataDir });
  // localhost, not 127.0.0.1: the address a person would type, and the one auth cookies are set for.
  const url = `http://localhost:${port}`;

  const child = spawn(process.execPath, [serverEntry, "start"], {
    cwd: repoRoot,
    env: serverEnv(dataDir, { PORT: String(port), ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });

  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-outputLimit);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const output = () => (log ? `--- server output ---\n${log}` : "(the server printed nothing)");

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), stopTimeoutMs);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, dataDir, output, stop };
}

// ---------------------------------------------------------------------------------------------
// Browser

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

export interface PageOptions {
  /** Viewport width in CSS pixels (390 is a phone). */
  width?: number;
  colorScheme?: "dark" | "light";
}

/**
 * A page in a fresh context (its own cookies and storage), so each test starts signed out.
 * Page errors are collected, so a test can assert the page raised none. Every state the test
 * acts in is checked for accessibility (a11y.ts).
 */
export async function newPage(
  browser: Browser,
  server: HearthServer,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page; pageErrors: string[] }> {
  const width = options.width ?? 1280;
  const colorScheme = options.colorScheme ?? "dark";
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width, height: width < 600 ? 844 : 800 },
    colorScheme,
  });
  context.setDefaultTimeout(15_000);
  sendOriginLikeTheApp(context, server.url);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  watchA11y(page, context, server.url, colorScheme);
  return { context, page, pageErrors };
}

/**
 * `context.request` (Playwright's API client, sharing the page's cookies) sends no Origin, unlike
 * the app's own fetches, and Hearth refuses a state-changing request without one. So setup calls
 * through it name Hearth's origin on POST, PUT, PATCH and DELETE unless they pass their own
 * `origin`. Pages are untouched: what the browser itself sends is what the tests check.
 */
function sendOriginLikeTheApp(context: BrowserContext, origin: string): void {
  const request = context.request;
  const fetch = request.fetch.bind(request);
  request.fetch = (urlOrRequest, options = {}) => {
    const given = typeof urlOrRequest === "string" ? undefined : urlOrRequest;
    const method = (options.method ?? given?.method() ?? "GET").toUpperCase();
    const headers = { ...(options.headers ?? given?.headers() ?? {}) };
    const named = Object.keys(headers).some((name) => name.toLowerCase() === "origin");
    if (["POST", "PUT", "PATCH", "DELETE"].includes(method) && !named) headers.origin = origin;
    return fetch(urlOrRequest, { ...options, headers });
  };
}

/**
 * Screenshots under /tmp/shots-<name>, to look at the screens a test walks through: each waits
 * `settleMs` first (a dialog's entrance, colour transitions) and may take the whole page.
 */
export function screenshots(name: string, opts: { settleMs?: number; fullPage?: boolean } = {}) {
  const dir = `/tmp/shots-${name}`;
  mkdirSync(dir, { recursive: true });
  const shot = async (page: Page, file: string) => {
    if (opts.settleMs) await page.waitForTimeout(opts.settleMs);
    await page.screenshot({ path: join(dir, `${file}.png`), fullPage: opts.fullPage === true });
  };
  return Object.assign(shot, { dir });
}

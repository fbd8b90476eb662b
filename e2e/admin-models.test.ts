import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ModelList } from "@hearth/contract";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  repoRoot,
  startServer,
  uniqueUsername,
} from "./harness.ts";
import { STAND_IN_MODEL_ID, type StandInModel, startStandInModel } from "./stand-in-model.ts";

/**
 * The admin models page against a real server: the demo-model note (and the home page's notice
 * linking to it), a download from a URL with a live progress bar, switching the running server to
 * the downloaded model, cancelling a download, and the page refused to members. The model host is
 * a local HTTP server holding a copy of the bundled model (HEARTH_E2E_LLM_MODEL may name another
 * GGUF), sending it slowly enough for the progress to be seen. Screenshots at 1280 and 390 px go
 * to /tmp/shots-models (HEARTH_E2E_SHOTS_MODELS=dir for another place).
 */

const shots = process.env.HEARTH_E2E_SHOTS_MODELS ?? "/tmp/shots-models";
const sourceModel = process.env.HEARTH_E2E_LLM_MODEL ?? join(repoRoot, "models/hearth-tiny.gguf");
const admin = { email: "models-admin@example.com", password: "admin-password-123", name: "Model Keeper" };
const demoNote =
  "Hearth Tiny is a small demo model made for trying Hearth out. Its replies are simple. Download a real model below.";

let server: HearthServer;
let browser: Browser;
let host: ModelHost;
let standIn: StandInModel;

beforeAll(async () => {
  if (!existsSync(sourceModel)) {
    throw new Error(`${sourceModel} is missing (set HEARTH_E2E_LLM_MODEL to a GGUF file)`);
  }
  mkdirSync(shots, { recursive: true });
  const dataDir = createDataDir();
  createAdmin(dataDir, admin);
  // A model server "on this machine" for the page to find (as it would find Ollama).
  standIn = await startStandInModel();
  [server, browser, host] = await Promise.all([
    startServer({ dataDir, env: { LLM_THREADS: "1", HEARTH_LOCAL_SERVERS: standIn.url } }),
    launchBrowser(),
    startModelHost(readFileSync(sourceModel)),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await host?.close();
  await standIn?.close();
});

interface ModelHost {
  url(file: string): string;
  close(): Promise<void>;
}

/** Serves `file` under any *.gguf name, 32 KB every 50 ms, so a download takes a few seconds. */
async function startModelHost(file: Buffer): Promise<ModelHost> {
  const chunk = 32 * 1024;
  const server: Server = createServer((req, res) => {
    if (!req.url?.endsWith(".gguf")) {
      res.writeHead(404).end("Not found");
      return;
    }
    res.writeHead(200, { "content-length": file.length, "content-type": "application/octet-stream" });
    let offset = 0;
    const timer = setInterval(() => {
      res.write(file.subarray(offset, offset + chunk));
      offset += chunk;
      if (offset >= file.length) {
        clearInterval(timer);
        res.end();
      }
    }, 50);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function openAs(who: { email: string; password: string } | null, width = 1280) {
  const opened = await newPage(browser, server, { width });
  if (who) {
    const response = await opened.context.request.post("/api/auth/sign-in/email", {
      data: { email: who.email, password: who.password },
      headers: { origin: server.url },
    });
    if (!response.ok()) throw new Error(`sign-in: ${response.status()} ${await response.text()}`);
  }
  return opened;
}

/** A full-page screenshot from the top (a scrolled page would show the sticky top bar mid-page). */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(shots, name), fullPage: true });
}

/** The same page at phone width for one screenshot, then back. */
async function shootAtPhoneWidth(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, name);
  if (size) await page.setViewportSize(size);
}

function urlForm(page: Page) {
  return page.getByRole("region", { name: "Download from a URL" });
}

describe("admin models page", () => {
  it("shows the demo model, downloads a model from a URL with live progress, and switches to it", async () => {
    const { context, page, pageErrors } = await openAs(admin);

    // Home says it's the demo model and, to an admin, links to the page that gets a real one.
    await page.goto("/");
    const notice = page
      .getByRole("status")
      .filter({ hasText: "You're chatting with Hearth's tiny demo model" });
    await notice.getByText("You're chatting with Hearth's tiny demo model, so replies are simple.").waitFor();
    await shoot(page, "home-demo-notice-1280.png");
    await shootAtPhoneWidth(page, "home-demo-notice-390.png");
    await notice.getByRole("link", { name: "Get a real model" }).click();
    await page.waitForURL(`${server.url}/admin/models`);
    await page.getByRole("heading", { level: 1, name: "Models" }).waitFor();
    expect(
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Models", exact: true })
        .count(),
    ).toBe(1);

    await page.getByText(demoNote).waitFor();
    await page.getByRole("heading", { level: 2, name: "Hearth Tiny (demo)" }).waitFor();
    // The one command for a real model, while the demo model runs.
    const oneStep = page.getByRole("region", { name: "Get a real model in one step" });
    await oneStep.getByText(/^npm run hearth -- models pull [\w.-]+ --use$/).waitFor();
    await shoot(page, "models-demo-1280.png");
    await shootAtPhoneWidth(page, "models-demo-390.png");

    // A custom URL; the download runs in the background and the page polls its progress.
    const form = urlForm(page);
    await form.getByLabel("Model file URL").fill("ftp://example.com/model.gguf");
    await form.getByRole("button", { name: "Download", exact: true }).click();
    await form.getByText("Enter an http:// or https:// address").waitFor();
    await form.getByLabel("Model file URL").fill(host.url("Tiny-Roleplay-Q8.gguf"));
    await form.getByLabel("Name (optional)").fill("tiny-roleplay");
    await form.getByRole("button", { name: "Download", exact: true }).click();

    const bar = page.getByRole("progressbar", { name: "Download of tiny-roleplay" });
    await bar.waitFor();
    let midShot = false;
    await expect
      .poll(
        async () => {
          const value = await bar.getAttribute("aria-valuenow");
          if (!midShot && value && Number(value) > 0 && Number(value) < 100) {
            midShot = true;
            await shoot(page, "models-downloading-1280.png");
          }
          return value;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe("100");
    const panel = page.getByRole("region", { name: "Download", exact: true });
    await panel.getByText("tiny-roleplay is downloaded").waitFor();
    await panel.getByText("100%").waitFor();

    // Use it: the running server switches without a restart.
    const installed = page.getByRole("region", { name: "On this server" });
    await installed
      .getByRole("listitem")
      .filter({ hasText: "tiny-roleplay" })
      .getByRole("button", { name: "Use this model" })
      .click();
    await page.getByRole("heading", { level: 2, name: "tiny-roleplay", exact: true }).waitFor();
    await installed.getByRole("listitem").filter({ hasText: "tiny-roleplay" }).getByText("Active").waitFor();
    expect(await page.getByText(demoNote).count()).toBe(0);
    // The copied model really loads.
    await page.getByText("State: Ready").waitFor({ timeout: 60_000 });
    await shoot(page, "models-switched-1280.png");

    const models = (await (await fetch(`${server.url}/api/models`)).json()) as ModelList;
    expect(models.default_id).toBe("tiny-roleplay");
    expect(models.models.map((m) => m.is_demo)).toEqual([false]);

    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: `Welcome, ${admin.name}` }).waitFor();
    expect(await page.getByText("You're chatting with Hearth's tiny demo model").count()).toBe(0);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("works on a phone: the page at 390 px, a download in progress, and Cancel", async () => {
    const { context, page, pageErrors } = await openAs(admin, 390);
    await page.goto("/admin/models");
    await page.getByRole("heading", { level: 1, name: "Models" }).waitFor();
    await shoot(page, "models-390.png");

    const form = urlForm(page);
    await form.getByLabel("Model file URL").fill(host.url("second-model.gguf"));
    await form.getByRole("button", { name: "Download", exact: true }).click();
    const bar = page.getByRole("progressbar", { name: "Download of second-model" });
    await expect
      .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await page
      .getByRole("region", { name: "Download", exact: true })
      .screenshot({ path: join(shots, "models-downloading-390.png") });
    // One download at a time: the catalog waits.
    const catalog = page.getByRole("region", { name: "Download a model" });
    expect(await catalog.getByRole("button", { name: "Download", exact: true }).first().isDisabled()).toBe(
      true,
    );

    await page.getByRole("button", { name: "Cancel download" }).click();
    await page.getByText("The download was cancelled").waitFor();
    await page.getByText(/^Cancelled\. .+ kept: downloading it again resumes from there\.$/).waitFor();
    expect(await catalog.getByRole("button", { name: "Download", exact: true }).first().isDisabled()).toBe(
      false,
    );
    await shoot(page, "models-cancelled-390.png");

    // Nothing at the page's width scrolls sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("finds a model server running on this machine and switches to it with one click", async () => {
    const { context, page, pageErrors } = await openAs(admin, 390);
    await page.goto("/admin/models");
    const found = page.getByRole("region", { name: "Model servers on this machine" });
    const use = found.getByRole("button", { name: `Use ${STAND_IN_MODEL_ID}` });
    await use.waitFor();
    await found.getByText(standIn.url).waitFor();
    await shoot(page, "models-local-server-390.png");
    // Found is not used: nothing went to the server before the click.
    expect(standIn.requests).toHaveLength(0);
    await use.click();
    await page.getByRole("heading", { level: 2, name: new RegExp(`^${STAND_IN_MODEL_ID} \\(`) }).waitFor();
    await page.getByText("Remote model server (OpenAI-compatible)").waitFor();
    const models = (await (await fetch(`${server.url}/api/models`)).json()) as ModelList;
    expect(models.default_id).toBe(STAND_IN_MODEL_ID);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("sends a member who is not an admin to /accessDenied", async () => {
    const member = { email: `member-${Date.now()}@example.com`, password: "correct horse battery" };
    const { context, page } = await newPage(browser, server);
    const signUp = await context.request.post("/api/auth/sign-up/email", {
      data: { ...member, name: "Plain Member", username: uniqueUsername("member") },
      headers: { origin: server.url },
    });
    expect(signUp.ok()).toBe(true);
    await page.goto("/admin/models");
    await page.waitForURL(`${server.url}/accessDenied`);
    await page.getByRole("heading", { name: "Access denied" }).waitFor();
    expect(await page.getByRole("link", { name: "Models", exact: true }).count()).toBe(0);
    await context.close();
  });
});

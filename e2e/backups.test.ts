import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkA11y } from "./a11y.ts";
import { password, signIn } from "./chat-tools-helpers.ts";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  runCli,
  startServer,
} from "./harness.ts";

/**
 * Admin → Backups, the small panel on the operator's Models page: no backup yet, then `hearth
 * backup` run beside the running server (it takes the backup itself, online) and the panel shows
 * its time, size and file, at 1280 and 390 px, checked for accessibility.
 */

const admin = { email: "backups-admin@example.com", password, name: "Keeper of Backups" };
let server: HearthServer;
let browser: Browser;

beforeAll(async () => {
  const dataDir = createDataDir();
  createAdmin(dataDir, admin);
  [server, browser] = await Promise.all([
    startServer({ dataDir, env: { HEARTH_BACKUP_EVERY: "6h", HEARTH_BACKUP_KEEP: "4" } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("Admin → Backups", () => {
  it("shows the schedule and that no backup was taken yet (1280 and 390 px)", async () => {
    for (const width of [1280, 390]) {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, admin.email);
      await page.goto("/admin/models");
      const panel = page.getByRole("region", { name: "Backups" });
      await panel.getByText("No backup yet").waitFor();
      await panel.getByText("None yet").waitFor();
      await panel.getByText("Every 6 hours, keeping 4").waitFor();
      await checkA11y(page);
      expect(pageErrors).toEqual([]);
      await context.close();
    }
  });

  it("shows the last backup's time and size once `hearth backup` ran beside the server", async () => {
    const out = runCli(server.dataDir, ["backup"]);
    expect(out).toContain("from the running Hearth");
    const name = /hearth-backup-\d{8}T\d{6}Z\.tar\.gz/.exec(out)?.[0] ?? "";
    expect(name).not.toBe("");
    for (const width of [1280, 390]) {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, admin.email);
      await page.goto("/admin/models");
      const panel = page.getByRole("region", { name: "Backups" });
      await panel.getByText("Backed up", { exact: true }).waitFor();
      await panel.getByText(name).waitFor();
      await expect(panel.getByText(/ · \d+(\.\d)? (KB|MB)$/).count()).resolves.toBe(1);
      await checkA11y(page);
      expect(pageErrors).toEqual([]);
      await context.close();
    }
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
      backup: { last_at: string | null; size_bytes: number | null };
    };
    expect(health.backup.size_bytes).toBeGreaterThan(0);
  });
});

import type { Me } from "@hearth/contract";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * The guest id in local storage (chat-and-characters §1, §3; issue 17 item 5): a guest whose
 * cookies are cleared is the same guest after a reload; without the stored id, nobody is.
 */
const meOf = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch("/api/me");
    return res.status === 200 ? ((await res.json()) as Me) : null;
  });

describe("guest id in local storage", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ env: { HEARTH_GUEST_SIGNINS_PER_DAY: "0" } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("survives a cleared cookie as the same guest; without it, the visitor stays signed out", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    const started = await context.request.post("/api/auth/sign-in/anonymous", { data: {} });
    expect(started.status(), await started.text()).toBe(200);
    await page.goto("/");
    const guest = await meOf(page);
    expect(guest?.is_guest).toBe(true);
    await page.waitForFunction(() => localStorage.getItem("hearth.guest") !== null);

    await context.clearCookies();
    expect(await meOf(page)).toBeNull();
    await page.reload();
    await expect.poll(async () => (await meOf(page))?.id).toBe(guest?.id);

    // Without the stored id (what signing out removes) a cleared cookie stays signed out.
    await page.evaluate(() => localStorage.removeItem("hearth.guest"));
    await context.clearCookies();
    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(await meOf(page)).toBeNull();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

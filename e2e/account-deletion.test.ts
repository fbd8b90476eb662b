import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDataDir,
  createSubscriber,
  type HearthServer,
  launchBrowser,
  newPage,
  runCli,
  startServer,
  uniqueUsername,
} from "./harness.ts";

/**
 * Remove Account (accounts-billing-admin §2.2 Account deletion dialog, §4): the confirm button
 * counts down from 6, one step a second, disabled meanwhile; closing the dialog resets it; at 0 the
 * account is deleted, the browser signed out and its local data cleared. A subscriber is warned
 * first (Manage Subscription / Proceed).
 *
 * Nothing ticks until the confirm button is pressed, so the accessibility check of the dialog
 * (run before that click) never races the countdown; the steps are awaited as they appear.
 */
const PASSWORD = "correct horse battery";
const WIDTHS = [390, 1280] as const;
const subscriberEmail = (width: number) => `subscriber-${width}@example.com`;
const suspendedEmail = (width: number) => `suspended-${width}@example.com`;

async function signUp(context: BrowserContext): Promise<{ email: string; username: string }> {
  const username = uniqueUsername("leaver");
  const email = `${username}@example.com`;
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email, password: PASSWORD, name: "Leaving Member", username },
  });
  expect(response.status(), await response.text()).toBe(200);
  return { email, username };
}

async function signIn(context: BrowserContext, email: string) {
  const response = await context.request.post("/api/auth/sign-in/email", {
    data: { email, password: PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Waits for each step of the countdown on the disabled confirm button, 6 down to 1. */
async function watchCountdown(page: Page, from = 6) {
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  for (let left = from; left >= 1; left--) {
    const button = dialog.getByRole("button", { name: `Delete account (${left})` });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
  }
}

/**
 * Confirms the open deletion dialog and waits for the account to go: the countdown, the browser
 * signed out at Home, and the account's password refused from then on.
 */
async function confirmDeletion(page: Page, context: BrowserContext, email: string) {
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByRole("button", { name: "Delete account", exact: true }).click();
  await watchCountdown(page, 6);
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
  const again = await context.request.post("/api/auth/sign-in/email", {
    data: { email, password: PASSWORD },
  });
  expect(again.status()).toBeGreaterThanOrEqual(400);
}

describe("account deletion", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    const dataDir = createDataDir();
    for (const width of WIDTHS) {
      createSubscriber(dataDir, { email: subscriberEmail(width), password: PASSWORD, name: "Paying Member" });
      const email = suspendedEmail(width);
      runCli(dataDir, [
        "user",
        "create",
        "--email",
        email,
        "--password",
        PASSWORD,
        "--name",
        "Suspended Member",
      ]);
      runCli(dataDir, ["user", "set-role", email, "--restriction", "complete"]);
    }
    [server, browser] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of WIDTHS) {
    it(`counts down, resets on close, deletes at 0, signs out and clears local data (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      const { email } = await signUp(context);
      await page.goto("/profile");
      await page.getByRole("heading", { name: "Profile settings" }).waitFor();

      await page.getByRole("button", { name: "Remove Account" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete your account?" });
      await dialog.waitFor();
      const confirm = dialog.getByRole("button", { name: "Delete account", exact: true });
      expect(await confirm.isEnabled()).toBe(true);

      // Pressed, it counts down, disabled; closing the dialog stops it and starts over next time.
      await confirm.click();
      await watchCountdown(page, 6);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await context.request.get("/api/me")).status()).toBe(200);
      await page.getByRole("button", { name: "Remove Account" }).click();
      await confirm.waitFor();
      expect(await confirm.isEnabled()).toBe(true);
      expect((await context.request.get("/api/me")).status()).toBe(200);

      // Something of the account's on this device, and the theme, which is the device's own (set
      // now, after every state was checked in both themes).
      await page.evaluate(() => {
        localStorage.setItem("hearth.drafts.test", "a draft");
        localStorage.setItem("hearth.theme", "dark");
      });
      // This time it runs to 0: the account goes, the browser is signed out at Home.
      await confirm.click();
      await watchCountdown(page, 6);
      await page.waitForURL(`${server.url}/`);
      await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
      expect((await context.request.get("/api/me")).status()).toBe(401);
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("hearth"))),
      ).toEqual(["hearth.theme"]);

      // Signing in again fails.
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: /invalid/i })
        .waitFor();
      expect((await context.request.get("/api/me")).status()).toBe(401);
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`warns a subscriber first: Manage Subscription or Proceed (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, subscriberEmail(width));
      await page.goto("/profile");
      await page.getByRole("heading", { name: "Profile settings" }).waitFor();

      await page.getByRole("button", { name: "Remove Account" }).click();
      const warning = page.getByRole("dialog", { name: "You have an active subscription" });
      await warning.waitFor();
      expect(await warning.getByRole("link", { name: "Manage Subscription" }).getAttribute("href")).toBe(
        "/portal",
      );
      await warning.getByRole("button", { name: "Proceed" }).click();
      await confirmDeletion(page, context, subscriberEmail(width));
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`a suspended account downloads its data and deletes itself from its one page (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, suspendedEmail(width));
      await page.goto("/chats");
      await page.getByRole("heading", { level: 1, name: "Your account has been suspended" }).waitFor();
      // Nothing else of the site answers it.
      expect((await context.request.get("/api/conversations")).status()).toBe(403);

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download everything" }).click();
      expect((await download).suggestedFilename()).toMatch(/\.zip$/);

      await page.getByRole("button", { name: "Delete my account" }).click();
      await confirmDeletion(page, context, suspendedEmail(width));
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

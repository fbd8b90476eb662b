import type { Me, ProfileSettings } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * Profile settings (accounts-billing-admin §2.2, §4): editing and saving with Update, and leaving
 * with unsaved changes through the app's own navigation, answered with Discard and with Update.
 */
let accounts = 0;
async function signUp(context: BrowserContext) {
  const username = `prof${Date.now().toString(36)}${++accounts}`;
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email: `${username}@example.com`, password: "correct horse battery", name: "Mira", username },
  });
  expect(response.status(), await response.text()).toBe(200);
}
const me = async (context: BrowserContext) => (await (await context.request.get("/api/me")).json()) as Me;
const settings = async (context: BrowserContext) =>
  (await (await context.request.get("/api/users/me/profile")).json()) as ProfileSettings;

/** Leaves through the account menu (an in-app navigation, which the unsaved-changes guard sees). */
async function openSettingsFromMenu(page: Page) {
  await page.getByRole("button", { name: /Account menu for/ }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
}

describe("profile settings", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [390, 1280]) {
    it(`edits the profile and asks before leaving with changes (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context);
      await page.goto("/profile");
      await page.getByRole("heading", { name: "Profile settings" }).waitFor();

      await page.getByLabel("Name", { exact: true }).fill("Mira Stone");
      await page.getByLabel("Highlights").fill("Collects old maps.");
      await page.getByRole("button", { name: "Update" }).click();
      await page.getByText("Profile saved successfully.").waitFor();
      expect((await me(context)).name).toBe("Mira Stone");
      expect((await settings(context)).highlights).toBe("Collects old maps.");

      // Leaving with a change: Discard goes on and keeps the saved name.
      await page.getByLabel("Name", { exact: true }).fill("Not Saved");
      await openSettingsFromMenu(page);
      const dialog = page.getByRole("dialog", { name: "Unsaved Changes" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Discard" }).click();
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      expect((await me(context)).name).toBe("Mira Stone");

      // Again, answered with Update: the change is saved and the navigation goes on.
      await page.goto("/profile");
      await page.getByLabel("Name", { exact: true }).fill("Mira Vale");
      await openSettingsFromMenu(page);
      await page
        .getByRole("dialog", { name: "Unsaved Changes" })
        .getByRole("button", { name: "Update" })
        .click();
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      expect((await me(context)).name).toBe("Mira Vale");
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

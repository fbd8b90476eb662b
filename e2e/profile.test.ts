import type { Me, ProfileSettings } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";
import { png } from "./png.ts";

/**
 * Profile settings (accounts-billing-admin §2.2, §4): editing and saving with Update, and leaving
 * with unsaved changes through the app's own navigation, answered with Discard and with Update;
 * the avatar, removing the saved model key, active sessions and the password change.
 */
const PASSWORD = "correct horse battery";
let accounts = 0;
async function signUp(context: BrowserContext): Promise<string> {
  const username = `prof${Date.now().toString(36)}${++accounts}`;
  const email = `${username}@example.com`;
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email, password: PASSWORD, name: "Mira", username },
  });
  expect(response.status(), await response.text()).toBe(200);
  return email;
}
const signInStatus = async (context: BrowserContext, email: string, password: string) =>
  (await context.request.post("/api/auth/sign-in/email", { data: { email, password } })).status();
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

    it(`uploads, replaces and removes the avatar, and removes the saved model key (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context);
      const saved = await context.request.patch("/api/users/me", {
        data: { openai_api_key: "sk-test-WXYZ" },
      });
      expect(saved.status()).toBe(200);
      await page.goto("/profile");
      await page.getByRole("heading", { name: "Profile settings" }).waitFor();

      // Uploaded at once: the preview here and the account menu's picture show the stored file.
      await page.getByLabel("Upload image").setInputFiles({
        name: "me.png",
        mimeType: "image/png",
        buffer: png(96, 96, [30, 120, 200]),
      });
      await page.getByRole("button", { name: "Remove", exact: true }).waitFor();
      const first = (await me(context)).avatar_url ?? "";
      expect(first).toMatch(/^\/api\/files\/users\/.+-512\.webp$/);
      await page.getByRole("main").locator(`img[src="${first}"]`).waitFor();
      await page.getByRole("banner").locator(`img[src="${first}"]`).waitFor();

      // A replacement removes the old file.
      await page.getByLabel("Change image").setInputFiles({
        name: "me.png",
        mimeType: "image/png",
        buffer: png(64, 64, [200, 60, 30]),
      });
      await expect.poll(async () => (await me(context)).avatar_url, { timeout: 10_000 }).not.toBe(first);
      const second = (await me(context)).avatar_url ?? "";
      await page.getByRole("banner").locator(`img[src="${second}"]`).waitFor();
      expect((await context.request.get(first)).status()).toBe(404);

      await page.getByRole("button", { name: "Remove", exact: true }).click();
      await page.getByLabel("Upload image").waitFor({ state: "attached" });
      expect((await me(context)).avatar_url).toBeNull();
      expect((await context.request.get(second)).status()).toBe(404);

      // The saved key is only ever shown by its last four characters, and can be removed.
      const hint = page.getByText("A key ending in WXYZ is saved.");
      await hint.waitFor();
      expect(await page.getByLabel("External language model key").inputValue()).toBe("");
      await page.getByRole("button", { name: "Remove saved key" }).click();
      await page.getByText("No key saved.").waitFor();
      expect((await settings(context)).openai_key).toEqual({ has_key: false, last4: null });
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`lists sessions, signs out the others, and changes the password (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      const email = await signUp(context);
      // The same account signed in on another device (its page stays blank).
      const { context: other } = await newPage(browser, server);
      expect(await signInStatus(other, email, PASSWORD)).toBe(200);
      expect((await other.request.get("/api/me")).status()).toBe(200);

      await page.goto("/profile");
      const sessions = page.getByRole("region", { name: "Active sessions" });
      await sessions.getByText("This device").waitFor();
      expect(await sessions.getByRole("listitem").count()).toBe(2);
      await sessions.getByRole("button", { name: "Sign out of all other sessions" }).click();
      await sessions.getByText("Signed out of every other session.").waitFor();
      await expect.poll(() => sessions.getByRole("listitem").count(), { timeout: 10_000 }).toBe(1);
      expect((await other.request.get("/api/me")).status()).toBe(401);
      expect((await context.request.get("/api/me")).status()).toBe(200);

      // The current password is required: a wrong one is refused on its field.
      const password = page.getByRole("region", { name: "Password" });
      await password.getByLabel("Current password").fill("not my password at all");
      await password.getByLabel("New password").fill("a brand new passphrase");
      await password.getByRole("button", { name: "Change password" }).click();
      await password.getByRole("alert").waitFor();
      expect(await signInStatus(other, email, "a brand new passphrase")).not.toBe(200);

      await password.getByLabel("Current password").fill(PASSWORD);
      await password.getByRole("button", { name: "Change password" }).click();
      await password.getByText("Password changed. Your other sessions were signed out.").waitFor();
      expect(await signInStatus(other, email, PASSWORD)).not.toBe(200);
      expect(await signInStatus(other, email, "a brand new passphrase")).toBe(200);
      // This device stays signed in.
      expect((await context.request.get("/api/me")).status()).toBe(200);
      await other.close();
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

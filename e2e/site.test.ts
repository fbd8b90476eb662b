import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataDir, type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * The site's layout and secondary pages (accounts-billing-admin §2.2 Layout, Android install page,
 * Other pages) at a phone's and a desktop's width: the footer from configuration, an operator's
 * Markdown page, the download page with its five steps, and the birthday banner's dismissal.
 */
describe.each([390, 1280])("site pages at %i px", (width) => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    const dataDir = createDataDir();
    mkdirSync(join(dataDir, "pages"), { recursive: true });
    writeFileSync(
      join(dataDir, "pages", "terms.md"),
      "# Our house rules\n\nBe **kind**.\n\n<script>alert(1)</script>\n",
    );
    writeFileSync(
      join(dataDir, "site.json"),
      JSON.stringify({ footer: { socials: [{ label: "Forum", url: "https://forum.example" }] } }),
    );
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: { HEARTH_ANDROID_URL: "https://cdn.example/hearth.apk", HEARTH_SALE: "true" },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the operator's page and the configured footer", async () => {
    const { page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/terms");
    await page.getByRole("heading", { name: "Our house rules" }).waitFor();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Our house rules");
    expect(await page.locator("article strong").textContent()).toBe("kind");
    // Raw HTML in the operator's file is dropped, never run.
    expect(await page.locator("article script").count()).toBe(0);

    const resources = page.getByRole("navigation", { name: "Resources" });
    await expect.poll(() => resources.getByRole("link", { name: "Privacy Policy" }).isVisible()).toBe(true);
    const socials = page.getByRole("navigation", { name: "Socials" });
    expect(await socials.getByRole("link", { name: "Forum" }).getAttribute("href")).toBe(
      "https://forum.example",
    );
    await page.getByRole("link", { name: /2257 Record-Keeping/ }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("18 U.S.C. 2257 Statement");
    expect(pageErrors).toEqual([]);
  });

  it("walks through the five install steps with the configured download", async () => {
    const { page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/apps/android");
    const steps = page.getByRole("main").getByRole("listitem");
    await page.getByRole("link", { name: "Download the app" }).waitFor();
    await expect.poll(() => steps.count()).toBe(5);
    expect(await steps.nth(0).textContent()).toContain("Uninstall");
    expect(await steps.nth(4).textContent()).toContain("Install");
    expect(await page.getByRole("link", { name: "Download the app" }).getAttribute("href")).toBe(
      "https://cdn.example/hearth.apk",
    );
    await page.goto("/download");
    await page.getByRole("link", { name: "Download the app" }).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Download the app" }).isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("shows the birthday banner while a sale is configured, until dismissed", async () => {
    const { page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/privacy");
    const banner = page.getByRole("region", { name: "Birthday sale" });
    await banner.waitFor();
    await expect.poll(() => banner.textContent()).toContain("Subscribe for just $0.99");
    await banner.getByRole("button", { name: "Dismiss the sale banner" }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: "Privacy Policy" }).waitFor();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Privacy Policy");
    expect(await banner.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

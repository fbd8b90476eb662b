import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PatreonStandin, standinEnv, startPatreonStandin } from "../apps/server/test/patreon-standin.ts";
import { signUp } from "./chat-tools-helpers.ts";
import { createDataDir, type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * The birthday sale page and pledge linking (accounts-billing-admin §2.2, §4, §9; issue 13 items 7
 * and 8) at a phone's and a desktop's width: the countdown ticking, a gift opened to its prices and
 * Claim Offer Now, the page gone once dismissed, and a member linking a Patreon pledge through the
 * local stand-in. HEARTH_E2E_SHOTS=<dir> saves a picture of the sale page.
 */
describe.each([390, 1280])("sale and pledge linking at %i px", (width) => {
  let server: HearthServer;
  let browser: Browser;
  let standin: PatreonStandin;

  beforeAll(async () => {
    standin = await startPatreonStandin();
    const dataDir = createDataDir();
    const day = 24 * 3600 * 1000;
    writeFileSync(
      join(dataDir, "site.json"),
      JSON.stringify({
        footer: { socials: [{ label: "Forum", url: "https://forum.example" }] },
        sale: {
          starts_at: new Date(Date.now() - day).toISOString(),
          ends_at: new Date(Date.now() + 3 * day).toISOString(),
        },
      }),
    );
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: {
          HEARTH_SALE: "true",
          ...standinEnv(standin),
          HEARTH_SEED_DEMO: process.env.HEARTH_E2E_SHOTS ? "true" : "false",
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await standin?.stop();
  });

  it("counts down and opens a gift to its prices and Claim Offer Now", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/sale");
    await page.getByRole("heading", { level: 1, name: "Hearth's Birthday Celebration" }).waitFor();
    const timer = page.getByRole("timer", { name: "Time left in the sale" });
    expect(await timer.locator("[data-unit=days] span").first().textContent()).toBe("2");
    const seconds = timer.locator("[data-unit=seconds] span").first();
    const first = await seconds.textContent();
    await expect.poll(() => seconds.textContent(), { timeout: 5_000 }).not.toBe(first);

    const locked = page.getByRole("button", { name: /Open your gift$/ });
    await expect.poll(() => locked.count()).toBe(3);
    await page.getByRole("button", { name: "True Supporter Open your gift" }).click();
    const gift = page.getByRole("region", { name: "True Supporter" });
    await gift.waitFor();
    expect(await gift.locator("s").textContent()).toBe("$15.00");
    const text = await gift.textContent();
    expect(text).toContain("$7.50");
    expect(text).toContain("50% off");
    expect(await gift.getByRole("link", { name: "Claim Offer Now" }).getAttribute("href")).toBe(
      "/checkout?plan_id=basic-1m&offer_id=birthday-basic-1m",
    );
    expect(
      await gift
        .getByRole("link", { name: /^Or \$125\.99 for the first year of True Supporter$/ })
        .getAttribute("href"),
    ).toBe("/checkout?plan_id=basic-1y&offer_id=birthday-basic-1y");
    // Opened for good with one click; the other two stay locked.
    expect(await locked.count()).toBe(2);
    await page.getByText("The discount applies to the first month only").waitFor();
    expect(await page.getByRole("link", { name: "Learn More" }).getAttribute("href")).toBe(
      "/creators/leaderboard",
    );
    expect(await page.getByRole("link", { name: "Forum" }).getAttribute("href")).toBe(
      "https://forum.example",
    );

    const shots = process.env.HEARTH_E2E_SHOTS;
    if (shots) {
      await page.getByRole("button", { name: "I'm All In Open your gift" }).click();
      await page.getByRole("region", { name: "I'm All In" }).waitFor();
      await page.screenshot({ path: join(shots, `sale-${width}.png`), fullPage: true });
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("sends /sale to the not-found page once dismissed", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/sale");
    await page.getByRole("button", { name: "Close the sale page" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/sale");
    await page.waitForURL((url) => url.pathname === "/not-found");
    await page.getByRole("heading", { level: 1, name: "This page is gone." }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("links a member's Patreon pledge through the stand-in, then goes home", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width });
    await signUp(context, "Pat Patron");
    standin.patron = { id: `patron-${width}`, pledge: { amountCents: 1500, tierTitle: "Supporter" } };
    await page.goto("/link/patreon");
    await page.waitForURL((url) => /^\/link\/patreon\/[^/]+$/.test(url.pathname), { timeout: 30_000 });
    await page.getByRole("heading", { level: 1, name: "Thank you for your support!" }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("True Supporter");
    if (process.env.HEARTH_E2E_SHOTS) {
      await page.screenshot({ path: join(process.env.HEARTH_E2E_SHOTS, `linked-${width}.png`) });
    }
    const me = await (await context.request.get("/api/me")).json();
    expect([me.role, me.status]).toEqual(["basic", "active"]);
    // The thank-you page moves on by itself.
    await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 });

    // Another member without a pledge is told so.
    const other = await newPage(browser, server, { width });
    await signUp(other.context, "Nell Nopledge");
    standin.patron = { id: `nobody-${width}`, pledge: null };
    await other.page.goto("/link/patreon");
    await other.page.getByRole("heading", { level: 1, name: "No active pledge found" }).waitFor();
    expect(other.pageErrors).toEqual([]);
    await other.context.close();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

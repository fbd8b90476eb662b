import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharacter, shot, signUp } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * Recommended Bots (chat-and-characters §2, §3, §7): the page at a phone's and a desktop's width,
 * its empty state when there is nothing to recommend, the ranked grid, the local-storage cache
 * and its Refresh button.
 */
describe("recommended bots", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    // No demo characters: the server starts with nothing to recommend.
    [server, browser] = await Promise.all([
      startServer({ env: { HEARTH_REVIEW_PUBLIC_BOTS: "false", HEARTH_SEED_DEMO: "false" } }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [390, 1280]) {
    it(`says there is nothing to recommend yet at ${width} px`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await page.goto("/recommended");
      await page.getByRole("heading", { level: 1, name: "Recommended Bots" }).waitFor();
      await page.getByRole("heading", { name: "Nothing to recommend yet" }).waitFor();
      await page.getByRole("link", { name: "Browse characters" }).waitFor();
      await shot(page, `recommended-empty-${width}`);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }

  it("lists public bots in the browse grid, caches the list on this device and refreshes it on demand", async () => {
    const creator = await newPage(browser, server);
    await signUp(creator.context, "Cora");
    await createCharacter(creator.context, "Elf Archer", { tags: ["fantasy"] });

    const { context, page } = await newPage(browser, server, { width: 390, colorScheme: "light" });
    await page.goto("/recommended");
    const grid = page.getByRole("list", { name: "Recommended bots" });
    await grid.getByRole("heading", { name: "Elf Archer" }).waitFor();
    const cached = () =>
      page.evaluate(() =>
        Object.keys(localStorage).filter((key) => key.startsWith("hearth.recommendations.v1:signed-out:")),
      );
    expect(await cached()).toEqual(["hearth.recommendations.v1:signed-out:sfw:"]);

    // A new bot appears after Refresh (the cached list is still fresh, so a reload alone keeps it).
    await createCharacter(creator.context, "Dragon Sage", { tags: ["fantasy"] });
    await page.reload();
    await grid.getByRole("heading", { name: "Elf Archer" }).waitFor();
    expect(await grid.getByRole("heading", { name: "Dragon Sage" }).count()).toBe(0);
    await page.getByRole("button", { name: "Refresh recommendations" }).click();
    await grid.getByRole("heading", { name: "Dragon Sage" }).waitFor();
    await shot(page, "recommended-390");

    // The view_my_chat_bots entry shows the same page to members.
    await signUp(context, "Mira");
    await page.goto("/recommended/mine");
    await page.getByRole("heading", { level: 1, name: "Recommended Bots" }).waitFor();
    await grid.getByRole("heading", { name: "Dragon Sage" }).waitFor();
    await context.close();
    await creator.context.close();
  });
});

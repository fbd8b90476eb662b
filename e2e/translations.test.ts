import type { Character } from "@hearth/contract";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharacter, shot, signUp } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * Character translations (issue 17 item 5): the creator adds a Spanish translation in the
 * editor; the profile asked for with ?language=es shows it, and without it the original.
 * At 1280 and 390 px.
 */
describe("character translations", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1280, 390]) {
    it(`the creator translates a bot in the editor and readers get it with ?language= (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width, colorScheme: "light" });
      await signUp(context, `Tara Translator ${width}`);
      const bot: Character = await createCharacter(context, "Keeper Linden");
      await page.goto(`/chatbot/edit/${bot.id}`);
      await page.getByText("Translations", { exact: true }).click();
      const form = page.getByRole("form", { name: "Translation" });
      await form.getByLabel("Language code (es, pt-br…)").fill("es");
      await form.getByLabel("Translated title").fill("Guardián del faro");
      await form.getByLabel("Translated greeting").fill("*recorta la mecha* Otra tormenta esta noche.");
      await shot(page, `translations-editor-${width}`);
      await form.getByRole("button", { name: "Save translation" }).click();
      await page.getByRole("status").filter({ hasText: "Translation es saved." }).waitFor();
      await page
        .getByRole("list", { name: "Translations" })
        .getByRole("button", { name: "Edit es" })
        .waitFor();

      const reader = await newPage(browser, server, { width });
      await signUp(reader.context, `Rae Reader ${width}`);
      await reader.page.goto(`/chatbot/${bot.id}?language=es`);
      await reader.page.getByText("Guardián del faro").first().waitFor();
      await reader.page.goto(`/chatbot/${bot.id}`);
      await reader.page.getByText("Keeper of the lighthouse").first().waitFor();
      expect(await reader.page.getByText("Guardián del faro").count()).toBe(0);
      expect(pageErrors).toEqual([]);
      expect(reader.pageErrors).toEqual([]);
      await reader.context.close();
      await context.close();
    });
  }
});

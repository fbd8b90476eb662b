import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comfyUiStandin } from "../apps/server/test/comfyui-standin.ts";
import { checkA11y } from "./a11y.ts";
import {
  conversationIdOf,
  createCharacter,
  openChat,
  password,
  signIn,
  signUp,
  storedMessages,
} from "./chat-tools-helpers.ts";
import {
  createDataDir,
  createSubscriber,
  type HearthServer,
  launchBrowser,
  newPage,
  screenshots,
  startServer,
} from "./harness.ts";

/**
 * Images in chats (issue 16 items 3-4) in Chromium at 1280 and 390 px, against a stand-in
 * ComfyUI (HTTP + WebSocket): the Image button makes a picture (progress, then the picture with
 * its prompt as alt text), Edit image prompt makes it again, an underage prompt shows the
 * dismissible error, and a free member gets the True Supporter modal.
 */
const subscriber = { email: "ivy.images@example.com", name: "Ivy Images" };

const shot = screenshots("images", { settleMs: 250 });

const pictures = (page: Page) => page.locator("[data-message-image]");

describe("images in chats", () => {
  let server: HearthServer;
  let browser: Browser;
  let comfy: Awaited<ReturnType<typeof comfyUiStandin>>;

  beforeAll(async () => {
    comfy = await comfyUiStandin({ delayMs: 400 });
    const dataDir = createDataDir();
    createSubscriber(dataDir, { ...subscriber, password }, "basic");
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: {
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          IMAGES_BACKEND: "comfyui",
          IMAGES_BASE_URL: comfy.url,
          IMAGES_MODEL: "dreamshaper_8.safetensors",
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await comfy?.close();
  });

  for (const width of [1280, 390]) {
    it(`a True Supporter makes a picture and edits its prompt (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, subscriber.email);
      const character = await createCharacter(context, `Keeper Iris ${width}`, {
        persona: "{{char}} is an old lighthouse keeper with a white beard and a yellow raincoat.",
        definition_visible: true,
      });
      await openChat(page, character);
      const conversationId = conversationIdOf(page);

      await page.getByRole("button", { name: "Make an image" }).click();
      // Progress while it is made, then the picture in a new message.
      await page.getByRole("status").filter({ hasText: "Making an image…" }).waitFor();
      await pictures(page).first().waitFor();
      await page.getByRole("button", { name: "Make an image" }).waitFor();
      const picture = pictures(page).first();
      const alt = (await picture.getAttribute("alt")) ?? "";
      expect(alt).toMatch(/^Image: Keeper Iris/);
      expect(alt).toContain("yellow raincoat");
      expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
        true,
      );
      await checkA11y(page);
      await shot(page, `picture-${width}`);

      // Regenerate on a picture makes the picture again (from its prompt), not a text reply.
      const first = await picture.getAttribute("src");
      await page.getByRole("button", { name: "Regenerate" }).click();
      await expect.poll(() => pictures(page).first().getAttribute("src")).not.toBe(first);
      expect(await pictures(page).count()).toBe(1);
      expect(await pictures(page).first().getAttribute("alt")).toBe(alt);

      // Edit image prompt: saved, and the picture made again from it.
      const before = await pictures(page).first().getAttribute("src");
      await page.getByRole("button", { name: "Edit image prompt" }).click();
      const editor = page.getByRole("textbox", { name: "Edit image prompt" });
      await editor.fill("Keeper Iris on the gallery of the lighthouse at dawn");
      await checkA11y(page);
      await page.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => pictures(page).first().getAttribute("src")).not.toBe(before);
      expect(await pictures(page).first().getAttribute("alt")).toBe(
        "Image: Keeper Iris on the gallery of the lighthouse at dawn",
      );
      expect(comfy.workflows.at(-1)?.["6"]?.inputs.text).toBe(
        "Keeper Iris on the gallery of the lighthouse at dawn",
      );
      const stored = await storedMessages(context, conversationId);
      expect(stored.filter((m) => m.image_url)).toHaveLength(1);

      // An underage prompt: the spec's words, dismissible, and nothing changes.
      await page.getByRole("button", { name: "Edit image prompt" }).click();
      await page.getByRole("textbox", { name: "Edit image prompt" }).fill("Keeper Iris as a 12 year old");
      await page.getByRole("button", { name: "Save" }).click();
      const error = page.getByText(/The image prompt might contain references to underage context/);
      await error.waitFor();
      await checkA11y(page);
      await shot(page, `underage-${width}`);
      await page.getByRole("button", { name: "Dismiss error" }).click();
      await error.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Cancel" }).click();
      expect((await storedMessages(context, conversationId)).find((m) => m.image_url)?.image_prompt).toBe(
        "Keeper Iris on the gallery of the lighthouse at dawn",
      );
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`a picture of a bot described as a child is refused with the dismissible error (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, subscriber.email);
      const character = await createCharacter(context, `Young Pip ${width}`, {
        persona: "{{char}} is a schoolgirl who lives by the sea.",
        definition_visible: true,
      });
      await openChat(page, character);
      const made = comfy.workflows.length;
      await page.getByRole("button", { name: "Make an image" }).click();
      const error = page.getByText(/The image prompt might contain references to underage context/);
      await error.waitFor();
      expect(await page.getByRole("button", { name: "Resubmit" }).count()).toBe(0);
      await shot(page, `refused-${width}`);
      await page.getByRole("button", { name: "Dismiss error" }).click();
      await error.waitFor({ state: "detached" });
      expect(await pictures(page).count()).toBe(0);
      // Nothing of the refused picture stays: no empty or failed message either.
      expect(await page.getByText("No reply").count()).toBe(0);
      expect(await page.locator('[data-role="bot"]').count()).toBe(1);
      expect(comfy.workflows.length).toBe(made);
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`a free member is offered True Supporter (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context, `Fern ${width}`);
      const character = await createCharacter(context, `Keeper Free ${width}`);
      await openChat(page, character);
      const made = comfy.workflows.length;
      await page.getByRole("button", { name: "Make an image" }).click();
      const modal = page.getByRole("dialog", { name: "True Supporter Plan Required" });
      await modal.waitFor();
      await modal.getByText("Images in chats is part of the True Supporter plan.").waitFor();
      await checkA11y(page);
      await shot(page, `premium-modal-${width}`);
      await modal.getByRole("button", { name: "Got it" }).click();
      await modal.waitFor({ state: "detached" });
      expect(comfy.workflows.length).toBe(made);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

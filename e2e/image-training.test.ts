import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comfyUiStandin } from "../apps/server/test/comfyui-standin.ts";
import { type TrainingStandin, trainingStandin } from "../apps/server/test/training-standin.ts";
import { checkA11y } from "./a11y.ts";
import { createCharacter, openChat, password, png, signIn } from "./chat-tools-helpers.ts";
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
 * Per-bot image training (issue 16 item 5) in Chromium at 1280 and 390 px: an I'm All In member's
 * Image button on a bot not trained yet opens the Chatbot Image Training modal; submitting it
 * shows the queue count and sends the bot's avatar to the training service (a stand-in speaking
 * decision 021's job protocol); opened again, it shows the queue message; a bot the service
 * cannot take shows §8's training error.
 */
const member = { email: "tess.training@example.com", name: "Tess Training" };

const shot = screenshots("image-training", { settleMs: 250 });

describe("image training", () => {
  let server: HearthServer;
  let browser: Browser;
  let comfy: Awaited<ReturnType<typeof comfyUiStandin>>;
  let trainer: TrainingStandin;

  beforeAll(async () => {
    [comfy, trainer] = await Promise.all([comfyUiStandin(), trainingStandin({ apiKey: "sk-e2e" })]);
    const dataDir = createDataDir();
    createSubscriber(dataDir, { ...member, password }, "premium");
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: {
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          IMAGES_BACKEND: "comfyui",
          IMAGES_BASE_URL: comfy.url,
          IMAGES_MODEL: "dreamshaper_8.safetensors",
          TRAINING_BASE_URL: trainer.url,
          TRAINING_API_KEY: "sk-e2e",
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await comfy?.close();
    await trainer?.close();
  });

  for (const width of [1280, 390]) {
    it(`an I'm All In member submits a bot for training and sees the queue (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, member.email);
      const character = await createCharacter(context, `Keeper Wren ${width}`);
      const avatar = await context.request.post(`/api/characters/${character.id}/avatar`, {
        multipart: { file: { name: "wren.png", mimeType: "image/png", buffer: png(96, 96, [200, 120, 60]) } },
      });
      expect(avatar.status(), await avatar.text()).toBe(200);
      await openChat(page, character);

      const made = comfy.workflows.length;
      await page.getByRole("button", { name: "Make an image" }).click();
      const dialog = page.getByRole("dialog", { name: "Chatbot Image Training" });
      await dialog.waitFor();
      await dialog.getByText(/learns what it looks like from its avatar/).waitFor();
      expect(comfy.workflows.length).toBe(made);
      await checkA11y(page);
      await shot(page, `explain-${width}`);

      const submitted = trainer.nextSubmission();
      await dialog.getByRole("button", { name: "Start training" }).click();
      await dialog
        .getByRole("status")
        .filter({ hasText: /Training request submitted\. Queue: \d+/ })
        .waitFor();
      await dialog.getByText(/Your chatbot is in the training queue/).waitFor();
      const job = await submitted;
      expect(job.output_name).toBe(`hearth-${character.id}`);
      expect(job.images).toHaveLength(1);
      expect(job.images[0]?.content_type).toBe("image/webp");
      expect(await dialog.getByRole("button", { name: "Start training" }).count()).toBe(0);
      await checkA11y(page);
      await shot(page, `queued-${width}`);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      // Opened again while it trains: the queue message, nothing to submit.
      await page.getByRole("button", { name: "Make an image" }).click();
      await dialog.waitFor();
      await dialog
        .getByText(/Your chatbot is in the training queue\. There (is|are) \d+ training requests?/)
        .waitFor();
      expect(await dialog.getByRole("button", { name: "Start training" }).count()).toBe(0);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });

      // The Chatbot Editor tells its creator where training stands.
      await page.goto(`/chatbot/edit/${character.id}`);
      await page.getByText("Training for images is queued.", { exact: false }).waitFor();
      await checkA11y(page);
      await shot(page, `editor-${width}`);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }

  it("shows the training error when the request cannot be submitted", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width: 390 });
    await signIn(context, member.email);
    // No avatar: the server refuses, with why.
    const character = await createCharacter(context, "Faceless Fen");
    await openChat(page, character);
    await page.getByRole("button", { name: "Make an image" }).click();
    const dialog = page.getByRole("dialog", { name: "Chatbot Image Training" });
    await dialog.getByRole("button", { name: "Start training" }).click();
    await dialog.getByText(/There was an error submitting the training request\..*needs an avatar/).waitFor();
    await checkA11y(page);
    await shot(page, "error-390");

    // From the editor too: not trained yet, and a Train button for an I'm All In creator.
    await page.keyboard.press("Escape");
    await page.goto(`/chatbot/edit/${character.id}`);
    await page.getByText("Not trained for images yet", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Train for images", exact: true }).click();
    await page.getByRole("dialog", { name: "Chatbot Image Training" }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

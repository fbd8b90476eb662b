import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCharacter,
  openChat,
  openChatMenu,
  recordGenerate,
  send,
  signUp,
} from "./chat-tools-helpers.ts";
import {
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  repoRoot,
  startServer,
} from "./harness.ts";

/**
 * The Settings page (accounts-billing-admin §2.2): the model chosen there is the one the member's
 * new chats start with, as the chat's Choose Model dialog shows, until they pick another in a chat.
 * Two models from a HEARTH_MODELS_FILE, both the bundled one.
 */
const bundled = join(repoRoot, "models/hearth-tiny.gguf");

async function modelShownInChat(page: Page): Promise<string> {
  await openChatMenu(page);
  await page.getByRole("menuitem", { name: "Choose Model" }).click();
  const dialog = page.getByRole("dialog", { name: "Choose Model" });
  const chosen = dialog.locator('button[aria-pressed="true"]');
  await chosen.waitFor();
  const id = (await chosen.getAttribute("data-model-id")) ?? "";
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  return id;
}

describe("settings: the default model for new chats", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(bundled)) throw new Error("models/hearth-tiny.gguf is missing");
    const dataDir = createDataDir();
    const modelsFile = join(dataDir, "models.json");
    const backend = { type: "embedded", path: bundled };
    writeFileSync(
      modelsFile,
      JSON.stringify({
        default: "hearth-house",
        models: [
          { id: "hearth-house", name: "House Keeper", context_size: 512, backend },
          { id: "hearth-lab", name: "Lab Keeper", tags: ["experimental"], context_size: 512, backend },
        ],
      }),
    );
    [server, browser] = await Promise.all([
      startServer({ dataDir, env: { HEARTH_MODELS_FILE: modelsFile, LLM_THREADS: "1" } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [390, 1280]) {
    it(`a model chosen in Settings is the one a new chat starts with (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context, "Sam Settings");
      const character = await createCharacter(context, "Keeper Ivo", { visibility: "private" });

      await page.goto("/settings");
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      const select = page.getByLabel("Model for new chats");
      expect(await select.inputValue()).toBe("");
      await select.selectOption({ label: "Lab Keeper (experimental)" });
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved. New chats start with this model.").waitFor();
      await page.reload();
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      await expect.poll(() => page.getByLabel("Model for new chats").inputValue()).toBe("hearth-lab");

      // A new chat starts on it: the dialog shows it chosen, and the request leaves the choice to
      // the server (nothing picked on this device), which runs the stored default.
      const bodies = recordGenerate(page);
      await openChat(page, character);
      expect(await modelShownInChat(page)).toBe("hearth-lab");
      await send(page, "Which lamp is lit tonight?");
      expect(bodies.at(-1)?.model_id).toBeUndefined();

      // Picking the server's default in a chat is a real choice now, sent with each message...
      await openChatMenu(page);
      await page.getByRole("menuitem", { name: "Choose Model" }).click();
      const dialog = page.getByRole("dialog", { name: "Choose Model" });
      await dialog.getByRole("button", { name: /House Keeper/ }).click();
      await dialog.waitFor({ state: "detached" });
      await send(page, "And tomorrow?");
      expect(bodies.at(-1)?.model_id).toBe("hearth-house");

      // ...until a new default is saved in Settings, which this device then follows.
      await page.goto("/settings");
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      await page.getByLabel("Model for new chats").selectOption({ label: "Lab Keeper (experimental)" });
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved. New chats start with this model.").waitFor();
      await openChat(page, character);
      expect(await modelShownInChat(page)).toBe("hearth-lab");
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

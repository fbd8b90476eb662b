import type { MemoryList } from "@hearth/contract";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conversationIdOf,
  createCharacter,
  openChat,
  openChatMenu,
  password,
  send,
  signIn,
  signUp,
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
import { type StandInModel, startStandInModel } from "./stand-in-model.ts";

/**
 * Manage Memories (chat-and-characters §2 chat menu, §6 memory_manager) and "Why this reply?" on
 * a bot reply, at 1280 and 390 px. Hearth talks to a stand-in model that records the prompts it
 * is sent, so the test also sees the pinned memory reach the model, not only the report.
 */

const subscriber = { email: "mae.memory@example.com", name: "Mae Memory" };

/** A screenshot under /tmp/shots-memories once the dialog's entrance has settled. */
const shot = screenshots("memories", { settleMs: 250 });

/** The accessible name of the focused element (aria-label first, then its text). */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return (element?.getAttribute("aria-label") ?? element?.innerText ?? "").trim();
  });

async function memoriesOf(context: BrowserContext, conversationId: string): Promise<MemoryList> {
  const response = await context.request.get(`/api/conversations/${conversationId}/memories`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as MemoryList;
}

const item = (dialog: Locator, text: string) => dialog.getByRole("listitem").filter({ hasText: text });

async function openWhyThisReply(page: Page, row: Locator) {
  await row.hover();
  await row.getByRole("button", { name: "Message actions" }).click();
  await page.getByRole("menuitem", { name: "Why this reply?" }).click();
  const dialog = page.getByRole("dialog", { name: "Why this reply?" });
  await dialog.waitFor();
  return dialog;
}

describe("memories", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;

  beforeAll(async () => {
    model = await startStandInModel();
    const dataDir = createDataDir();
    // Get a Taste is the first plan with memory_manager. Made before the server starts: the
    // embedded database allows one process at a time.
    createSubscriber(dataDir, { ...subscriber, password }, "minimal");
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: { LLM_BASE_URL: model.url, LLM_MODEL: "stand-in", HEARTH_REVIEW_PUBLIC_BOTS: "false" },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  for (const width of [1280, 390]) {
    it(`a paid member adds, pins, edits and deletes memories, then sees them behind a reply (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, subscriber.email);
      const character = await createCharacter(context, `Keeper Mnemo ${width}`);
      await openChat(page, character);
      const conversationId = conversationIdOf(page);

      await openChatMenu(page);
      await page.getByRole("menuitem", { name: "Manage Memories" }).click();
      const dialog = page.getByRole("dialog", { name: "Manage Memories" });
      await dialog.waitFor();
      await dialog.getByRole("heading", { name: "No memories yet" }).waitFor();
      await shot(page, `empty-${width}`);

      // The counter follows the text; Add memory is off while empty or over 250 characters.
      const box = dialog.getByRole("textbox", { name: "New memory" });
      const add = dialog.getByRole("button", { name: "Add memory" });
      const counter = dialog.locator("#new-memory-count");
      expect(await add.isDisabled()).toBe(true);
      await box.fill("x".repeat(251));
      await expect.poll(() => counter.textContent()).toContain("251 / 250");
      expect(await add.isDisabled()).toBe(true);
      await dialog.getByText("1 character over the limit of 250.").waitFor();
      await shot(page, `over-limit-${width}`);

      const name = "My name is Rowan and I keep bees.";
      const harbour = "We met at the harbour on a rainy night.";
      await box.fill(name);
      await expect.poll(() => counter.textContent()).toContain(`${name.length} / 250`);
      await add.click();
      await item(dialog, name).waitFor();
      await expect.poll(() => box.inputValue()).toBe("");
      await box.fill(harbour);
      await box.press("Control+Enter");
      await item(dialog, harbour).waitFor();

      // Pin the first: pressed, renamed, and listed first.
      await item(dialog, name).getByRole("button", { name: "Pin memory", exact: true }).click();
      const unpin = item(dialog, name).getByRole("button", { name: "Unpin memory", exact: true });
      await unpin.waitFor();
      expect(await unpin.getAttribute("aria-pressed")).toBe("true");
      await expect.poll(() => dialog.getByRole("listitem").first().textContent()).toContain(name);

      // Edit it inline: Save is off over the limit; Escape in the box cancels, not the dialog.
      const edited = "My name is Rowan; I keep bees by the lighthouse.";
      await item(dialog, name).getByRole("button", { name: "Edit", exact: true }).click();
      const editBox = dialog.getByRole("textbox", { name: "Edit memory" });
      await expect.poll(() => editBox.evaluate((el) => el === document.activeElement)).toBe(true);
      await editBox.fill("y".repeat(300));
      expect(await dialog.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
      await editBox.press("Escape");
      await editBox.waitFor({ state: "detached" });
      expect(await dialog.isVisible()).toBe(true);
      await item(dialog, name).getByRole("button", { name: "Edit", exact: true }).click();
      await editBox.fill(edited);
      await shot(page, `editing-${width}`);
      await dialog.getByRole("button", { name: "Save" }).click();
      await item(dialog, edited).waitFor();
      await editBox.waitFor({ state: "detached" });

      // Delete the other one, through its confirm step (Escape there means Keep).
      await item(dialog, harbour).getByRole("button", { name: "Delete", exact: true }).click();
      await dialog.getByText("Delete this memory?").waitFor();
      await expect.poll(() => focusedName(page)).toBe("Keep");
      await page.keyboard.press("Escape");
      await dialog.getByText("Delete this memory?").waitFor({ state: "detached" });
      expect(await dialog.isVisible()).toBe(true);
      await item(dialog, harbour).getByRole("button", { name: "Delete", exact: true }).click();
      await dialog.getByText("Delete this memory?").waitFor();
      await item(dialog, harbour).getByRole("button", { name: "Delete", exact: true }).click();
      await item(dialog, harbour).waitFor({ state: "detached" });
      await shot(page, `list-${width}`);

      const stored = await memoriesOf(context, conversationId);
      expect(stored.memories.map((m) => [m.content, m.pinned, m.source])).toEqual([[edited, true, "manual"]]);

      // Escape closes it, and focus goes back to the chat menu's button.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toBe("Chat menu");

      // The pinned memory reaches the model, and "Why this reply?" lists it.
      await send(page, "Do you remember who I am?");
      expect(model.requests.at(-1)?.messages.some((m) => m.content.includes(edited))).toBe(true);
      const why = await openWhyThisReply(page, page.locator('[data-role="bot"]').last());
      const used = why.getByRole("region", { name: "Memories used" });
      await used.getByText(edited).waitFor();
      await used.getByText("Pinned").waitFor();
      await why.getByText(/tokens of [\d,]+/).waitFor();
      await shot(page, `why-this-reply-${width}`);
      await page.keyboard.press("Escape");
      await why.waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toBe("Message actions");

      // The greeting was not written by a prompt: the report says none was recorded.
      const greeting = await openWhyThisReply(page, page.locator('[data-role="bot"]').first());
      await greeting.getByText(/No prompt was recorded for this reply/).waitFor();
      await shot(page, `why-greeting-${width}`);
      await greeting.getByRole("button", { name: "Done" }).click();
      await greeting.waitFor({ state: "detached" });

      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`a free member's chat menu has no Manage Memories (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context, "Fern Free");
      const character = await createCharacter(context, `Keeper Free ${width}`);
      await openChat(page, character);
      await openChatMenu(page);
      await page.getByRole("menuitem", { name: "Change Title" }).waitFor();
      expect(await page.getByRole("menuitem", { name: "Manage Memories" }).count()).toBe(0);
      await page.keyboard.press("Escape");
      // The server agrees: the list is refused.
      const refused = await context.request.get(`/api/conversations/${conversationIdOf(page)}/memories`);
      expect(refused.status()).toBe(403);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

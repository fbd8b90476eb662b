import type { AppConfig, Memory, MemoryList } from "@hearth/contract";
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
 * Automatic memory (issue 14; chat-and-characters §6 conversation_memory_auto) in Chromium: a
 * True Supporter chats three exchanges, the background job writes memories of them (the stand-in
 * model writes no "- " facts, so they are the member's own sentences with the speaker), Manage
 * Memories marks them Automatic, an edit makes one the member's own, and "Why this reply?" on a
 * later reply lists one that was used. Then a server built with HEARTH_MEMORY_MANAGER=false hides
 * Manage Memories even from a premium member.
 */

const shot = screenshots("auto-memory", { settleMs: 250 });

async function memoriesOf(context: BrowserContext, conversationId: string): Promise<Memory[]> {
  const response = await context.request.get(`/api/conversations/${conversationId}/memories`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as MemoryList).memories;
}

const item = (dialog: Locator, text: string) => dialog.getByRole("listitem").filter({ hasText: text });

async function openManageMemories(page: Page): Promise<Locator> {
  await openChatMenu(page);
  await page.getByRole("menuitem", { name: "Manage Memories" }).click();
  const dialog = page.getByRole("dialog", { name: "Manage Memories" });
  await dialog.waitFor();
  return dialog;
}

/** The facts the member states, one sentence each, with names and places. */
const facts = [
  "My sister Lena keeps the brass key in Eastwatch.",
  "Our father Tomas sailed from Greyhaven to Saltmere in 1892.",
  "Captain Orrin guards the northern gate of Ravenford every winter.",
];

describe("automatic memory", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;
  const supporter = { email: "sam.supporter@example.com", name: "Sam" };

  beforeAll(async () => {
    model = await startStandInModel();
    const dataDir = createDataDir();
    // True Supporter ("basic") is the first plan with conversation_memory_auto.
    createSubscriber(dataDir, { ...supporter, password }, "basic");
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
    it(`writes memories of three exchanges, marked Automatic, used in a later reply (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signIn(context, supporter.email);
      const character = await createCharacter(context, `Keeper Auto ${width}`);
      await openChat(page, character);
      const conversationId = conversationIdOf(page);

      for (const fact of facts) await send(page, fact);

      // The job runs after the third reply, in the background: wait for what it wrote.
      const expected = facts.map((fact) => `${supporter.name}: ${fact}`);
      await expect
        .poll(
          async () =>
            (await memoriesOf(context, conversationId))
              .filter((m) => m.source === "auto")
              .map((m) => m.content)
              .sort(),
          { timeout: 90_000, interval: 500 },
        )
        .toEqual([...expected].sort());
      const written = await memoriesOf(context, conversationId);
      // Each is tied to the one message it quotes.
      expect(written.every((m) => m.message_ids.length === 1)).toBe(true);

      const dialog = await openManageMemories(page);
      for (const text of expected) await item(dialog, text).getByText("Automatic", { exact: true }).waitFor();
      await dialog.getByText(/they are marked Automatic/).waitFor();
      await shot(page, `automatic-${width}`);

      // Editing one makes it the member's own: the badge goes, the server agrees.
      const [lena, tomas, orrin] = expected as [string, string, string];
      const edited = "Tomas, our father, sailed from Greyhaven to Saltmere in 1892 and never came back.";
      await item(dialog, tomas).getByRole("button", { name: "Edit", exact: true }).click();
      const editBox = dialog.getByRole("textbox", { name: "Edit memory" });
      await editBox.fill(edited);
      await dialog.getByRole("button", { name: "Save" }).click();
      await item(dialog, edited).waitFor();
      await editBox.waitFor({ state: "detached" });
      expect(await item(dialog, edited).getByText("Automatic", { exact: true }).count()).toBe(0);
      await item(dialog, lena).getByText("Automatic", { exact: true }).waitFor();
      await item(dialog, orrin).getByText("Automatic", { exact: true }).waitFor();
      await shot(page, `edited-${width}`);
      const after = await memoriesOf(context, conversationId);
      expect(after.find((m) => m.content === edited)).toMatchObject({ source: "manual", message_ids: [] });
      expect(
        after
          .filter((m) => m.source === "auto")
          .map((m) => m.content)
          .sort(),
      ).toEqual([lena, orrin].sort());

      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });

      // A later reply recalls the automatic memory its message is about.
      await send(page, "Where does Lena keep the brass key these days?");
      const last = page.locator('[data-role="bot"]').last();
      await last.hover();
      await last.getByRole("button", { name: "Message actions" }).click();
      await page.getByRole("menuitem", { name: "Why this reply?" }).click();
      const why = page.getByRole("dialog", { name: "Why this reply?" });
      await why.waitFor();
      await why.getByRole("region", { name: "Memories used" }).getByText(lena).waitFor();
      await shot(page, `why-this-reply-${width}`);
      // The model was sent it too.
      expect(model.requests.at(-1)?.messages.some((m) => m.content.includes(lena))).toBe(true);
      await why.getByRole("button", { name: "Done" }).click();
      await why.waitFor({ state: "detached" });

      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

describe("a build without memory management (HEARTH_MEMORY_MANAGER=false)", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;
  const premium = { email: "pia.premium@example.com", name: "Pia Premium" };

  beforeAll(async () => {
    model = await startStandInModel();
    const dataDir = createDataDir();
    createSubscriber(dataDir, { ...premium, password }, "premium");
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: {
          LLM_BASE_URL: model.url,
          LLM_MODEL: "stand-in",
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          HEARTH_MEMORY_MANAGER: "false",
        },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  it("has no Manage Memories in the chat menu, even for a premium member", async () => {
    const config = (await (await fetch(`${server.url}/api/config`)).json()) as AppConfig;
    expect(config.memory_manager).toBe(false);

    const { context, page, pageErrors } = await newPage(browser, server);
    await signIn(context, premium.email);
    const character = await createCharacter(context, "Keeper Unflagged");
    await openChat(page, character);
    await openChatMenu(page);
    // The menu is drawn (premium's Generation Settings is there), without Manage Memories.
    await page.getByRole("menuitem", { name: "Generation Settings" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Manage Memories" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    // The server agrees: the list is refused.
    const refused = await context.request.get(`/api/conversations/${conversationIdOf(page)}/memories`);
    expect(refused.status()).toBe(403);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

import { readFileSync } from "node:fs";
import type { Character, ConversationLorebooks } from "@hearth/contract";
import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversationIdOf, createCharacter, openChat, openChatMenu, signUp } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, screenshots, startServer } from "./harness.ts";

/**
 * Lorebooks (issue 14 item 5) in Chromium: a character's book written in the Chatbot Editor and
 * tried in its test box, kept across a save and a reload; a SillyTavern world-info file imported
 * on /lorebooks, exported again, and attached to a chat from the chat menu.
 */

const shot = screenshots("lorebooks", { settleMs: 250 });

/** A small world-info file as SillyTavern writes it ({ entries: { uid: entry } }). */
const worldInfo = {
  entries: {
    "0": {
      uid: 0,
      key: ["castle"],
      keysecondary: [],
      comment: "Castle",
      content: "An old castle stands on the hill above the harbor.",
      constant: false,
      selective: false,
      selectiveLogic: 0,
      order: 100,
      position: 1,
      disable: false,
      probability: 100,
      depth: 4,
    },
    "1": {
      uid: 1,
      key: ["ferry", "boat"],
      keysecondary: [],
      comment: "Ferry",
      content: "The ferry leaves at dawn and returns at dusk.",
      constant: false,
      selective: false,
      selectiveLogic: 0,
      order: 110,
      position: 0,
      disable: false,
      probability: 100,
      depth: 4,
    },
  },
};

/** The i-th entry of a lorebook editor (in prompt order). */
const entry = (scope: Locator, index: number) => scope.locator("li[data-lore-entry]").nth(index);

async function addEntry(
  scope: Locator,
  index: number,
  fields: { name: string; keys: string[]; content: string },
): Promise<Locator> {
  await scope.getByRole("button", { name: "Add entry" }).click();
  const item = entry(scope, index);
  await item.getByLabel(/^Name/).fill(fields.name);
  for (const key of fields.keys) {
    await item.getByRole("textbox", { name: "Keys", exact: true }).fill(key);
    await item.getByRole("textbox", { name: "Keys", exact: true }).press("Enter");
  }
  await item.getByLabel("Content", { exact: true }).fill(fields.content);
  return item;
}

/** Runs the test box and answers the names of the entries it says would activate. */
async function activated(scope: Locator, text: string, submit: "button" | "keys"): Promise<string[]> {
  const box = scope.getByRole("textbox", { name: "Message to test" });
  const answered = scope.page().waitForResponse((r) => r.url().endsWith("/api/lorebooks/test"));
  await box.fill(text);
  if (submit === "keys") await box.press("Control+Enter");
  else await scope.getByRole("button", { name: "Test", exact: true }).click();
  expect((await answered).status()).toBe(200);
  const results = scope.locator("[data-lore-test-results]");
  await results.waitFor();
  return (
    await results
      .locator("[data-activated]")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-activated") ?? ""))
  ).sort();
}

describe("lorebooks", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("writes a character's lorebook in the Chatbot Editor, tests it, and keeps it", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Lore Writer");
    // Private: a public bot waits for review, and its editor is locked meanwhile.
    const character = await createCharacter(context, "Warden Ysolde", { visibility: "private" });
    await page.goto(`/chatbot/edit/${character.id}`);
    const section = page.getByRole("region", { name: "Lorebook" });
    await section.getByRole("button", { name: "Add a lorebook" }).click();

    await addEntry(section, 0, { name: "Dragons", keys: ["dragon"], content: "Dragons nest on the cliffs." });
    const sea = await addEntry(section, 1, {
      name: "Quiet sea",
      keys: ["sea"],
      content: "The sea is calm and green today.",
    });
    await sea.getByLabel("Selective", { exact: true }).check();
    await sea.getByLabel("Secondary keys logic").selectOption("not_any");
    await sea.getByRole("textbox", { name: "Secondary keys", exact: true }).fill("storm");
    await sea.getByRole("textbox", { name: "Secondary keys", exact: true }).press("Enter");
    const rule = await addEntry(section, 2, { name: "World rule", keys: [], content: "Magic is rare here." });
    await rule.getByLabel("Constant", { exact: true }).check();

    // The test box sends the unsaved book: a key, a selective NOT entry, a constant one.
    expect(await activated(section, "A dragon flies low over the sea.", "button")).toEqual([
      "Dragons",
      "Quiet sea",
      "World rule",
    ]);
    await section.locator("[data-lore-test]").scrollIntoViewIfNeeded();
    await shot(page, "editor-test-box-1280");
    // A storm on the sea: NOT ANY keeps the Quiet sea out; no dragon; the constant stays.
    expect(await activated(section, "A storm breaks over the sea.", "keys")).toEqual(["World rule"]);
    await section.getByText("Would activate").waitFor();

    // An entry without text is refused with the contract's message, then deleted after a confirm.
    await section.getByRole("button", { name: "Add entry" }).click();
    await page.getByRole("button", { name: "Save changes" }).click();
    const blank = entry(section, 3);
    await blank.getByText("An entry needs text").waitFor();
    await blank.getByText("Needs a fix").waitFor();
    await blank.getByRole("button", { name: "Delete Entry 4" }).click();
    await blank.getByRole("button", { name: "Delete entry", exact: true }).click();
    await expect.poll(() => section.locator("li[data-lore-entry]").count()).toBe(3);

    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Changes saved").waitFor();
    await page.reload();
    const reloaded = page.getByRole("region", { name: "Lorebook" });
    await expect
      .poll(() =>
        reloaded
          .locator("li[data-lore-entry]")
          .evaluateAll((items) => items.map((i) => i.getAttribute("data-lore-entry"))),
      )
      .toEqual(["Dragons", "Quiet sea", "World rule"]);
    const saved = (await (
      await context.request.get(`/api/characters/${character.id}?switch=T1`)
    ).json()) as Character;
    expect(
      saved.character_book?.entries.map((e) => [
        e.name,
        e.keys,
        e.selective,
        e.logic,
        e.secondary_keys,
        e.constant,
      ]),
    ).toEqual([
      ["Dragons", ["dragon"], false, "and_any", [], false],
      ["Quiet sea", ["sea"], true, "not_any", ["storm"], false],
      ["World rule", [], false, "and_any", [], true],
    ]);

    // At a phone's width the section and its test box still fit.
    await page.setViewportSize({ width: 390, height: 844 });
    await entry(reloaded, 1).locator("button[aria-expanded]").click();
    await activated(reloaded, "The dragon sleeps.", "button");
    await reloaded.locator("[data-lore-test]").scrollIntoViewIfNeeded();
    await shot(page, "editor-test-box-390");
    await entry(reloaded, 1).scrollIntoViewIfNeeded();
    await shot(page, "editor-entry-390");

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows an entry over the token budget and an invalid regular expression in the test box", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Lore Tester");
    const created = await context.request.post("/api/lorebooks", {
      data: {
        name: "Wolf lore",
        token_budget: 40,
        entries: [
          // No name: the editor calls it by its first key.
          { id: "teeth", keys: ["Teeth"], content: "Wolves' teeth shine silver.", priority: 100 },
          {
            id: "saga",
            name: "Long saga",
            keys: ["wolf"],
            content: "The saga of the grey wolf, told by the fire. ".repeat(30).trim(),
          },
          { id: "broken", name: "Broken pattern", keys: ["/[unclosed/"], content: "Never used." },
          { id: "blank", keys: [], content: "No name and no keys." },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.goto(`/lorebooks/${id}`);
    const editor = page.locator("[data-lorebook-editor]");
    await expect
      .poll(() =>
        editor
          .locator("li[data-lore-entry]")
          .evaluateAll((items) => items.map((i) => i.getAttribute("data-lore-entry"))),
      )
      .toEqual(["Teeth", "Long saga", "Broken pattern", "Entry 4"]);

    expect(await activated(editor, "The wolf bares its teeth.", "button")).toEqual(["Teeth"]);
    const results = editor.locator("[data-lore-test-results]");
    const overBudget = results.getByRole("list", { name: "Entries over budget" });
    await expect.poll(() => overBudget.getByRole("listitem").allTextContents()).toEqual(["Long saga"]);
    const invalid = results.getByRole("list", { name: "Invalid keys" });
    await expect
      .poll(() => invalid.getByRole("listitem").allTextContents())
      .toEqual(["/[unclosed/ in Broken pattern"]);
    await results.scrollIntoViewIfNeeded();
    await shot(page, "test-box-budget-regex-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await results.scrollIntoViewIfNeeded();
    await shot(page, "test-box-budget-regex-390");

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("imports a world-info file on /lorebooks, exports it, and attaches it to a chat", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Lore Keeper");
    const character = await createCharacter(context, "Harbor Master Tam");

    await page.goto("/lorebooks");
    await page.getByRole("heading", { name: "No lorebooks yet" }).waitFor();
    await page.getByLabel("Import a file").setInputFiles({
      name: "Harbor lore.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(worldInfo)),
    });
    await page.getByText("Imported Harbor lore").waitFor();
    const list = page.getByRole("list", { name: "Your lorebooks" });
    await list.getByText("2 entries", { exact: false }).waitFor();
    await shot(page, "list-1280");

    await page.getByRole("link", { name: "Edit Harbor lore" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Harbor lore" }).waitFor();
    const editor = page.locator("[data-lorebook-editor]");
    await expect
      .poll(() =>
        editor
          .locator("li[data-lore-entry]")
          .evaluateAll((items) => items.map((i) => i.getAttribute("data-lore-entry"))),
      )
      .toEqual(["Castle", "Ferry"]);
    expect(await activated(editor, "We took the boat to the castle.", "keys")).toEqual(["Castle", "Ferry"]);
    await editor.locator("[data-lore-test]").scrollIntoViewIfNeeded();
    await shot(page, "book-test-box-1280");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 390, height: 844 });
    await editor.locator("[data-lore-test]").scrollIntoViewIfNeeded();
    await shot(page, "book-test-box-390-light");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: "dark" });

    // Export as World Info JSON: the download is the book in SillyTavern's shape.
    await page.getByRole("button", { name: "Export Harbor lore" }).click();
    const downloading = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "World Info JSON" }).click();
    const download = await downloading;
    const file = JSON.parse(readFileSync((await download.path()) as string, "utf8")) as {
      entries: Record<string, { key: string[]; comment: string; content: string }>;
    };
    expect(Object.values(file.entries).map((e) => [e.comment, e.key])).toEqual([
      ["Castle", ["castle"]],
      ["Ferry", ["ferry", "boat"]],
    ]);

    // Attach it to a chat from the chat menu.
    await openChat(page, character);
    const conversationId = conversationIdOf(page);
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Lorebooks" }).click();
    const dialog = page.getByRole("dialog", { name: "Lorebooks" });
    await dialog.getByText("Up to 5 per chat: 0 chosen.").waitFor();
    await dialog.getByRole("checkbox", { name: /Harbor lore/ }).check();
    await shot(page, "chat-dialog-1280");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    const attached = (await (
      await context.request.get(`/api/conversations/${conversationId}/lorebooks`)
    ).json()) as ConversationLorebooks;
    expect(attached.lorebooks.map((b) => b.name)).toEqual(["Harbor lore"]);

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

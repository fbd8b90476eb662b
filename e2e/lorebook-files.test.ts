import { readFileSync } from "node:fs";
import type { Lorebook } from "@hearth/contract";
import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharacter, openChat, openChatMenu, signUp } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, screenshots, startServer } from "./harness.ts";

/**
 * Lorebook files in Chromium (issue 14 item 5), beside lorebooks.test.ts: a file that holds no
 * lorebook is refused with the server's words; a book exported as a card's character_book; a
 * card whose character_book has entries imported at /chatbot/create and shown in the imported
 * bot's editor; and no Lorebooks in a guest's chat menu.
 */

const shot = screenshots("lorebooks", { settleMs: 250 });

const entryTitles = (scope: Locator) =>
  scope
    .locator("li[data-lore-entry]")
    .evaluateAll((items) => items.map((i) => i.getAttribute("data-lore-entry")));

/** A V2 card whose book has a named entry and one known only by its key. */
const card = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Wolfmother Ilse",
    description: "The old wolf who keeps the northern woods.",
    personality: "Patient, watchful.",
    first_mes: "*the wolf raises her head* You came far.",
    mes_example: "",
    scenario: "",
    creator_notes: "",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    tags: [],
    creator: "",
    character_version: "1",
    extensions: {},
    character_book: {
      name: "Northern woods",
      scan_depth: 3,
      token_budget: 300,
      recursive_scanning: false,
      extensions: {},
      entries: [
        {
          id: 1,
          keys: ["den", "lair"],
          secondary_keys: [],
          name: "The den",
          comment: "The den",
          content: "Ilse's den lies under the roots of a fallen oak.",
          constant: false,
          selective: false,
          insertion_order: 10,
          enabled: true,
          position: "before_char",
          extensions: {},
        },
        {
          id: 2,
          keys: ["Teeth", "fangs"],
          secondary_keys: [],
          content: "Her teeth are worn but still sharp.",
          constant: false,
          selective: false,
          insertion_order: 20,
          enabled: true,
          position: "after_char",
          extensions: {},
        },
      ],
    },
  },
};

describe("lorebook files", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    // Public bots go straight up, so a guest can open one.
    [server, browser] = await Promise.all([
      startServer({ env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("refuses a junk file in words, and exports a book as a card's character_book", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Lore Porter");
    await page.goto("/lorebooks");
    await page.getByRole("heading", { name: "No lorebooks yet" }).waitFor();

    // Not a lorebook: the server's message, not a code.
    await page.getByLabel("Import a file").setInputFiles({
      name: "notes.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify({ hello: "world" })),
    });
    const refused = page.getByRole("alert").filter({ hasText: "notes.json couldn't be imported" });
    await refused
      .getByText(/This file is not a lorebook\. Choose a SillyTavern world-info JSON file/)
      .waitFor();
    await shot(page, "import-junk-1280");
    expect(await page.getByRole("list", { name: "Your lorebooks" }).count()).toBe(0);

    // A book made through the API (the editor has its own test), exported from the list.
    const created = await context.request.post("/api/lorebooks", {
      data: {
        name: "Sea lore",
        token_budget: 250,
        entries: [
          {
            id: "tide",
            name: "Tides",
            keys: ["tide"],
            content: "The tide turns at noon.",
            insertion_order: 10,
          },
          {
            id: "reef",
            keys: ["reef", "coral"],
            content: "A reef guards the bay.",
            position: "at_depth",
            depth: 2,
            insertion_order: 20,
          },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const book = (await created.json()) as Lorebook;
    await page.reload();
    await page.getByRole("button", { name: "Export Sea lore" }).click();
    const downloading = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Card character_book JSON" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.json$/);
    const file = JSON.parse(readFileSync((await download.path()) as string, "utf8")) as {
      name: string;
      token_budget: number;
      entries: Array<{ name: string; keys: string[]; content: string; insertion_order: number }>;
    };
    expect([file.name, file.token_budget]).toEqual(["Sea lore", 250]);
    expect(file.entries.map((e) => [e.name, e.keys, e.content, e.insertion_order])).toEqual(
      book.entries.map((e) => [e.name, e.keys, e.content, e.insertion_order]),
    );

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("imports a card with a character_book and shows its entries in the bot's editor", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Card Importer");
    await page.goto("/chatbot/create");
    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: "ilse.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(card)),
      });
    const report = page.getByRole("region", { name: "Imported Wolfmother Ilse" });
    await report.getByText("character_book (2 entries)").waitFor();
    await shot(page, "card-import-1280");
    await report.getByRole("link", { name: "Edit Wolfmother Ilse" }).click();
    await page.waitForURL(/\/chatbot\/edit\//);

    // The unnamed entry goes by its first key.
    const section = page.getByRole("region", { name: "Lorebook" });
    await expect.poll(() => entryTitles(section)).toEqual(["The den", "Teeth"]);
    const teeth = section.locator('li[data-lore-entry="Teeth"]');
    await teeth.getByText("Teeth, fangs").waitFor();
    await teeth.locator("button[aria-expanded]").click();
    await expect
      .poll(() => teeth.getByLabel("Content", { exact: true }).inputValue())
      .toBe("Her teeth are worn but still sharp.");
    await section.getByRole("textbox", { name: "Message to test" }).fill("She bares her fangs by the den.");
    await section.getByRole("button", { name: "Test", exact: true }).click();
    const results = section.locator("[data-lore-test-results]");
    await expect
      .poll(() =>
        results
          .locator("[data-activated]")
          .evaluateAll((items) => items.map((i) => i.getAttribute("data-activated"))),
      )
      .toEqual(["The den", "Teeth"]);
    await teeth.scrollIntoViewIfNeeded();
    await shot(page, "card-import-editor-1280");

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("leaves Lorebooks out of a guest's chat menu", async () => {
    const owner = await newPage(browser, server);
    await signUp(owner.context, "Bot Owner");
    const character = await createCharacter(owner.context, "Ferryman Odo");
    await owner.context.close();

    const { context, page, pageErrors } = await newPage(browser, server);
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await openChat(page, character);
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Choose Model" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Lorebooks" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    // The server agrees: guests keep no lorebooks.
    const refused = await context.request.get("/api/lorebooks");
    expect(refused.status()).toBe(403);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

import type { Character, CharacterPage } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botBubbles, createCharacter, openChat, openChatMenu, shot, signUp } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";
import { type StandInModel, startStandInModel } from "./stand-in-model.ts";

/**
 * Block Creator (chat-and-characters §2, §6, §8; accounts-billing-admin §2.2): block from the chat
 * menu, the bot gone from browse, the chat refused with blockedBotCreator and its Unblock Creator
 * button, the Blocked creators page; and favorites from the chat menu.
 */

const BLOCKED_TEXT =
  "You have blocked the creator of this character. Please unblock creator to use this character.";

async function isFavorite(context: BrowserContext, id: string): Promise<boolean> {
  return ((await (await context.request.get(`/api/characters/${id}`)).json()) as Character).is_favorite;
}

async function browseNames(context: BrowserContext): Promise<string[]> {
  const page = (await (await context.request.get("/api/characters?limit=48")).json()) as CharacterPage;
  return page.characters.map((c) => c.name);
}

/** A creator has a username, so their bots link to a creator page. */
async function signUpCreator(context: BrowserContext, name: string, username: string) {
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email: `${username}@example.com`, password: "correct horse battery", name, username },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A card in the browse grid, by its heading. */
const browseCard = (page: Page, name: string) => page.getByRole("heading", { name, exact: true });

describe("blocking creators", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;
  let ember: Character;
  let shipMind: Character;
  let creatorContext: BrowserContext;

  beforeAll(async () => {
    model = await startStandInModel();
    [server, browser] = await Promise.all([
      startServer({
        env: {
          LLM_BASE_URL: model.url,
          LLM_MODEL: "stand-in",
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          HEARTH_SEED_DEMO: "false",
        },
      }),
      launchBrowser(),
    ]);
    // Two creators, one bot each.
    const cora = await newPage(browser, server);
    creatorContext = cora.context;
    await signUpCreator(creatorContext, "Cora", "cora_makes");
    ember = await createCharacter(creatorContext, "Ember Sprite", { tags: ["fantasy"] });
    const otto = await newPage(browser, server);
    await signUpCreator(otto.context, "Otto", "otto_builds");
    shipMind = await createCharacter(otto.context, "Ship Mind", { tags: ["scifi"] });
    await otto.context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  it("favorites from the chat menu, blocks the creator, unblocks from the chat and from Blocked creators", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Mara");

    // Favorite and unfavorite from the chat menu.
    await openChat(page, ember);
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Add Bot To Favorite" }).click();
    await expect.poll(() => isFavorite(context, ember.id), { timeout: 10_000 }).toBe(true);
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Remove Bot From Favorite" }).click();
    await expect.poll(() => isFavorite(context, ember.id), { timeout: 10_000 }).toBe(false);

    // Block Creator: the confirmation says what it does, then the chat is refused.
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Block Creator" }).click();
    const dialog = page.getByRole("dialog", { name: "Block Creator" });
    await dialog.getByText("All of their chatbots are hidden from you").waitFor();
    await shot(page, "blocking-dialog-1280");
    await dialog.getByRole("button", { name: "Block Creator" }).click();
    await page.getByRole("heading", { name: "You blocked this creator" }).waitFor();
    await page.getByText(BLOCKED_TEXT).waitFor();

    // Gone from browse (and from the API's browse for this member).
    await page.goto("/");
    await browseCard(page, "Ship Mind").waitFor();
    expect(await browseCard(page, "Ember Sprite").count()).toBe(0);
    expect(await browseNames(context)).toEqual(["Ship Mind"]);

    // Opening the chat again answers blockedBotCreator, with Unblock Creator.
    await page.goto(`/chat/${ember.id}`);
    await page.getByText(BLOCKED_TEXT).waitFor();
    await page.getByRole("button", { name: "Unblock Creator" }).click();
    const unblock = page.getByRole("dialog", { name: "Unblock Creator" });
    await unblock.getByRole("button", { name: "Unblock Creator" }).click();
    await page.getByRole("heading", { level: 1, name: "Ember Sprite" }).waitFor();
    await botBubbles(page).first().waitFor();
    expect(await browseNames(context)).toEqual(expect.arrayContaining(["Ember Sprite", "Ship Mind"]));

    // Block again, then unblock from the Blocked creators page.
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Block Creator" }).click();
    await page
      .getByRole("dialog", { name: "Block Creator" })
      .getByRole("button", { name: "Block Creator" })
      .click();
    await page.getByText(BLOCKED_TEXT).waitFor();
    await page.goto("/blocked-creators");
    await page.getByRole("heading", { level: 1, name: "Blocked creators" }).waitFor();
    const list = page.getByRole("list", { name: "Blocked creators" });
    const username = ember.creator_username as string;
    await list.getByRole("link", { name: `@${username}` }).waitFor();
    await shot(page, "blocking-page-1280");
    await list.getByRole("button", { name: `Unblock @${username}` }).click();
    await page
      .getByRole("dialog", { name: "Unblock Creator" })
      .getByRole("button", { name: "Unblock Creator" })
      .click();
    await page.getByRole("heading", { name: "You haven't blocked anyone" }).waitFor();
    await page.goto("/");
    await browseCard(page, "Ember Sprite").waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the Blocked creators page at a phone's width, with @username linking to the creator page", async () => {
    const { context, page } = await newPage(browser, server, { width: 390, colorScheme: "light" });
    await signUp(context, "Pia");
    for (const bot of [ember, shipMind]) {
      const response = await context.request.post("/api/users/blocked-creators", {
        data: { creator: bot.creator_user_id },
      });
      expect(response.status()).toBe(200);
    }
    await page.goto("/blocked-creators");
    const list = page.getByRole("list", { name: "Blocked creators" });
    await list.getByRole("listitem").nth(1).waitFor();
    expect(await list.getByRole("listitem").count()).toBe(2);
    // Each row's circle takes the next of the five colours.
    const colours = await list
      .locator("[data-circle-colour]")
      .evaluateAll((circles) => circles.map((c) => c.getAttribute("data-circle-colour")));
    expect(colours).toEqual(["0", "1"]);
    await shot(page, "blocking-page-390");
    await list.getByRole("link", { name: `@${shipMind.creator_username}` }).click();
    await page.waitForURL(new RegExp(`/creator/${shipMind.creator_username}$`));
    await context.close();
  });

  it("hides Block Creator and favorites from the bot's creator, and from guests", async () => {
    const own = await creatorContext.newPage();
    await openChat(own, ember);
    await openChatMenu(own);
    await own.getByRole("menuitem", { name: "Change Title" }).waitFor();
    for (const name of ["Block Creator", "Add Bot To Favorite"]) {
      expect(await own.getByRole("menuitem", { name }).count()).toBe(0);
    }
    await own.keyboard.press("Escape");
    await own.close();

    const { context, page } = await newPage(browser, server, { width: 390 });
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await openChat(page, ember);
    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Change Title" }).waitFor();
    for (const name of ["Block Creator", "Add Bot To Favorite"]) {
      expect(await page.getByRole("menuitem", { name }).count()).toBe(0);
    }
    await page.keyboard.press("Escape");
    await page.goto("/blocked-creators");
    await page.getByRole("heading", { name: "You are not logged in yet!" }).waitFor();
    await context.close();
  });

  it("tells signed-out visitors they are not logged in", async () => {
    const { context, page } = await newPage(browser, server);
    await page.goto("/blocked-creators");
    await page.getByRole("heading", { name: "You are not logged in yet!" }).waitFor();
    await page.getByRole("link", { name: "Sign in" }).first().waitFor();
    await context.close();
  });
});

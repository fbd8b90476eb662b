import type { Character, ConversationCreated, QueueState } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botBubbles,
  createCharacter,
  messageBox,
  password,
  send,
  signIn,
  signUp,
  userBubbles,
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
 * The waiting room (chat-and-characters §2, §4 "Waiting queue"; issue 15 item 1) with room for
 * one member at a time: a free member who chats holds the only access, a second free member
 * waits (banner, Waiting queue modal, send off, regenerate, report and like hidden), and a Get a
 * Taste member chats without waiting. At 1280 and 390 px.
 */

const taste = { email: "tess.taste@example.com", name: "Tess Taste" };

const shot = screenshots("waiting-room", { settleMs: 250 });

/** The member's state in the room (GET reads only). */
async function queueOf(context: BrowserContext, character: Character, conversationId: string) {
  const response = await context.request.get(
    `/api/queue?character_id=${character.id}&conversation_id=${conversationId}`,
  );
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as QueueState;
}

/** Joins the line, or keeps the place in it (POST), as the chat screen does. */
async function joinQueue(context: BrowserContext, character: Character, conversationId: string) {
  const response = await context.request.post("/api/queue", {
    data: { character_id: character.id, conversation_id: conversationId },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as QueueState;
}

/** A chat of three messages made through the API (a chat of one message skips the line). */
async function chatThroughApi(context: BrowserContext, character: Character): Promise<string> {
  const created = await context.request.post("/api/conversations", { data: { character_id: character.id } });
  expect(created.status(), await created.text()).toBe(201);
  const conversationId = ((await created.json()) as ConversationCreated).conversation.id;
  const generated = await context.request.post("/api/generate", {
    data: { conversation_id: conversationId, action: "send", content: "Is the lamp lit?" },
    headers: { accept: "text/event-stream" },
  });
  const stream = await generated.text();
  expect(generated.status(), stream).toBe(200);
  expect(stream).toContain('"type":"done"');
  return conversationId;
}

const banner = (page: Page) => page.locator("[data-waiting-room-banner]");
const sendButton = (page: Page) => page.getByRole("button", { name: "Send", exact: true });

describe("waiting room", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;
  let character: Character;
  /** The free member who chatted first and holds the only access. */
  let holder: { context: BrowserContext; chat: string };

  beforeAll(async () => {
    model = await startStandInModel();
    const dataDir = createDataDir();
    createSubscriber(dataDir, { ...taste, password }, "minimal");
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: {
          LLM_BASE_URL: model.url,
          LLM_MODEL: "stand-in",
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          HEARTH_WAITING_ROOM_CAPACITY: "1",
        },
      }),
      launchBrowser(),
    ]);
    // A bot made by someone else (a creator chats with their own bots whatever the line).
    const { context } = await newPage(browser, server);
    await signIn(context, taste.email);
    character = await createCharacter(context, "Keeper Linden");
    await context.close();
    // A free member chats (a new chat skips the line), then joins the line, as the chat screen
    // does after a reply: that takes the only access. Reading alone would not have.
    const first = await newPage(browser, server);
    await signUp(first.context, "Ada First");
    holder = { context: first.context, chat: await chatThroughApi(first.context, character) };
    expect((await queueOf(first.context, character, holder.chat)).status).toBe("not_in_line");
    await joinQueue(first.context, character, holder.chat);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  it("a free member chatting holds the only access; the next one waits, sees the modal, and can't send", async () => {
    const held = await queueOf(holder.context, character, holder.chat);
    expect(held).toMatchObject({ status: "access", enabled: true });

    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Bo Second");
    const secondChat = await chatThroughApi(context, character);
    await page.goto(`/chat/${character.id}/${secondChat}`);
    await page.getByRole("heading", { level: 1, name: character.name }).waitFor();
    await banner(page).waitFor();
    expect(await banner(page).innerText()).toContain("Waiting Room Position 1");
    // Nobody's access time has been measured yet: the estimate is shown, in whole minutes.
    expect(await banner(page).innerText()).toMatch(/Estimated Time Left \d+ min/);

    // Send is off with its reason; the draft can still be written.
    await messageBox(page).fill("Can I come in?");
    expect(await sendButton(page).isDisabled()).toBe(true);
    expect(await sendButton(page).getAttribute("title")).toContain("waiting room");
    expect(await page.getByRole("button", { name: "Suggest a reply" }).isDisabled()).toBe(true);
    await messageBox(page).press("Enter");
    expect(await userBubbles(page).count()).toBe(1);

    // Regenerate, like (rating the reply and the bot) and report are hidden; continue is off.
    const lastBot = page.locator('[data-role="bot"]').last();
    expect(await lastBot.getByRole("button", { name: "Regenerate" }).count()).toBe(0);
    expect(await lastBot.getByRole("button", { name: "Rate" }).count()).toBe(0);
    expect(await lastBot.getByRole("button", { name: "Continue" }).getAttribute("aria-disabled")).toBe(
      "true",
    );
    expect(await page.getByRole("button", { name: /^Rate Chatbot/ }).count()).toBe(0);
    await lastBot.getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menuitem", { name: "Copy" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Report" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    await shot(page, "waiting-1280-dark");

    // The banner is a button: Enter opens the Waiting queue modal.
    await banner(page).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Waiting queue" });
    await dialog.waitFor();
    expect(await dialog.locator("[data-waiting-position]").innerText()).toBe("1");
    await dialog.getByText("After 20 minutes without chatting").waitFor();
    const plans = dialog.getByRole("link", { name: /Get a Taste skips the line/ });
    expect(await plans.getAttribute("href")).toBe("/subscribe");
    await shot(page, "modal-1280-dark");
    await dialog.getByRole("button", { name: "Keep waiting" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.hasAttribute("data-waiting-room-banner")))
      .toBe(true);

    // The same at a phone's width, in the light theme.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "light" });
    await shot(page, "waiting-390-light");
    await banner(page).click();
    await dialog.waitFor();
    await shot(page, "modal-390-light");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // The first member still chats.
    expect((await queueOf(holder.context, character, holder.chat)).status).toBe("access");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a new chat skips the line until its first reply; then the waiting banner shows (390 px)", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width: 390 });
    await signUp(context, "Cy Third");
    await page.goto(`/chat/${character.id}`);
    await page.waitForURL(new RegExp(`/chat/${character.id}/[^/]+$`));
    await botBubbles(page).first().waitFor();
    // A chat of one message (its greeting) is let through.
    expect(await banner(page).count()).toBe(0);
    await send(page, "Hello there");
    await banner(page).waitFor();
    expect(await banner(page).innerText()).toContain("Waiting Room Position");
    expect(
      await page.locator('[data-role="bot"]').last().getByRole("button", { name: "Regenerate" }).count(),
    ).toBe(0);
    await shot(page, "after-first-reply-390-dark");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("says an expired spot, and a send the room refuses brings up the banner, not an error (1280 px, light)", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { colorScheme: "light" });
    await signUp(context, "Di Fourth");
    const chat = await chatThroughApi(context, character);
    // What the queue answers, until the test hands it back to the server.
    let answer: QueueState | null = {
      status: "expired",
      retry_after: 30,
      bypass: null,
      position: 2,
      time_left: 45,
      expires_in: null,
      enabled: true,
    };
    // Both the read (GET) and the join (POST) the chat screen makes.
    await page.route(/\/api\/queue(\?|$)/, (route) =>
      answer ? route.fulfill({ json: answer }) : route.continue(),
    );
    await page.goto(`/chat/${character.id}/${chat}`);
    const notice = page.getByText(
      "Your spot expired after 20 minutes without chatting; you're back in line.",
    );
    await notice.waitFor();
    expect(await banner(page).innerText()).toContain("Waiting Room Position 2");
    // Under a minute left: no estimate.
    expect(await banner(page).innerText()).not.toContain("Estimated Time Left");
    await shot(page, "expired-1280-light");
    await page.getByRole("button", { name: "Dismiss notice" }).click();
    await notice.waitFor({ state: "detached" });

    // The queue says access (say, read just before the line filled up); the server refuses the send.
    answer = { ...answer, status: "access", position: null, time_left: null, expires_in: 1200 };
    await page.reload();
    await botBubbles(page).nth(1).waitFor();
    expect(await banner(page).count()).toBe(0);
    answer = null;
    await messageBox(page).fill("Let me in");
    await messageBox(page).press("Enter");
    await banner(page).waitFor();
    expect(await banner(page).innerText()).toContain("Waiting Room Position");
    // The words go back to the box, and no error banner is shown.
    await expect.poll(() => messageBox(page).inputValue()).toBe("Let me in");
    expect(await page.getByText("There was an error processing").count()).toBe(0);
    expect(await userBubbles(page).count()).toBe(1);
    await shot(page, "refused-1280-light");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a Get a Taste member chats without waiting (1280 px)", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signIn(context, taste.email);
    await page.goto(`/chat/${character.id}`);
    await page.waitForURL(new RegExp(`/chat/${character.id}/[^/]+$`));
    await botBubbles(page).first().waitFor();
    await send(page, "Evening, keeper.");
    await send(page, "Any ships tonight?");
    expect(await botBubbles(page).count()).toBe(3);
    expect(await banner(page).count()).toBe(0);
    await page.locator('[data-role="bot"]').last().getByRole("button", { name: "Regenerate" }).waitFor();
    await shot(page, "taste-1280-dark");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

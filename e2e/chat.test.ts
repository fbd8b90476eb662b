import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, createServer as createTcpServer, type Socket } from "node:net";
import { join } from "node:path";
import type { Character, Conversation, ConversationList, MessagePage, ModelList } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  type HearthServer,
  launchBrowser,
  newPage,
  repoRoot,
  screenshots,
  startServer,
  uniqueUsername,
} from "./harness.ts";

/**
 * The chat screen and the chats pages against a real Hearth process.
 *
 * "Bundled model": the model a fresh install chats with (HEARTH_E2E_LLM_MODEL may point at another
 * GGUF while it is being rebuilt). "Slow model": the same server behind an OpenAI-compatible
 * stand-in that writes one word every few tens of milliseconds, and behind a TCP proxy that can
 * cut every connection, so stopping mid-reply, sticking to the bottom while text streams, and
 * resuming after a dropped connection or a reload are tested deterministically.
 */

const shot = screenshots("chat");

const password = "correct horse battery";
let accounts = 0;

async function signUp(context: BrowserContext, name: string) {
  const email = `chat-${Date.now()}-${++accounts}@example.com`;
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email, password, name, username: uniqueUsername(name) },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function createCharacter(context: BrowserContext, fields: Record<string, unknown>): Promise<Character> {
  const response = await context.request.post("/api/characters?switch=T1", {
    data: { visibility: "public", title: "Test character", ...fields },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Character;
}

const botBubbles = (page: Page) => page.locator('[data-role="bot"] [data-message-bubble]');
const userBubbles = (page: Page) => page.locator('[data-role="user"] [data-message-bubble]');
const counter = (page: Page) => page.locator("[data-alternative-counter]");
const messageBox = (page: Page) => page.getByRole("textbox", { name: /^Message / });

/** The send button is back (no Stop): nothing is being generated. */
async function waitIdle(page: Page, timeout = 60_000) {
  await page.getByRole("button", { name: "Send", exact: true }).waitFor({ timeout });
  await expect.poll(() => botBubbles(page).last().getAttribute("aria-busy"), { timeout }).toBeNull();
}

function conversationIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split("/")[3];
  if (!id) throw new Error(`not on a conversation: ${page.url()}`);
  return id;
}

async function openChat(page: Page, character: Character) {
  await page.goto(`/chat/${character.id}`);
  await page.waitForURL(new RegExp(`/chat/${character.id}/[^/]+$`));
  await page.getByRole("heading", { level: 1, name: character.name }).waitFor();
  await botBubbles(page).first().waitFor();
}

async function lastStoredReply(context: BrowserContext, conversationId: string) {
  const response = await context.request.get(`/api/conversations/${conversationId}/messages?limit=5`);
  const page = (await response.json()) as MessagePage;
  const reply = page.messages.filter((m) => m.role === "bot").at(-1);
  if (!reply) throw new Error("no bot message stored");
  return reply;
}

/** Records the last bot bubble on every DOM change: was it busy, how long was its text. */
async function recordStreaming(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __chatLog: Array<{ busy: boolean; typing: boolean; length: number }> };
    w.__chatLog = [];
    new MutationObserver(() => {
      const bubbles = document.querySelectorAll('[data-role="bot"] [data-message-bubble]');
      const last = bubbles[bubbles.length - 1];
      if (!last) return;
      w.__chatLog.push({
        busy: last.getAttribute("aria-busy") === "true",
        typing: last.querySelector("[data-typing-indicator]") !== null,
        length: last.textContent?.length ?? 0,
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () =>
    page.evaluate(
      () =>
        (window as unknown as { __chatLog: Array<{ busy: boolean; typing: boolean; length: number }> })
          .__chatLog,
    );
}

/** Every animation frame: how far the message list is from its bottom, and where a row sits. */
async function recordScroll(page: Page, anchorMessageId: string | null) {
  await page.evaluate((anchorId) => {
    const w = window as unknown as {
      __scrollLog: Array<{ fromEnd: number; anchorTop: number | null }>;
      __stop: boolean;
    };
    w.__scrollLog = [];
    w.__stop = false;
    const list = document.querySelector('[role="log"][aria-label="Messages"]') as HTMLElement;
    const tick = () => {
      if (w.__stop) return;
      const anchor = anchorId ? document.querySelector(`[data-message-id="${anchorId}"]`) : null;
      w.__scrollLog.push({
        fromEnd: list.scrollHeight - list.scrollTop - list.clientHeight,
        anchorTop: anchor ? anchor.getBoundingClientRect().top : null,
      });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, anchorMessageId);
  return () =>
    page.evaluate(() => {
      const w = window as unknown as {
        __scrollLog: Array<{ fromEnd: number; anchorTop: number | null }>;
        __stop: boolean;
      };
      w.__stop = true;
      return w.__scrollLog;
    });
}

/** Scrolls the message list to its very top (rows measured on the way may push it; try again). */
async function scrollToTop(page: Page) {
  const list = page.getByRole("log", { name: "Messages" });
  for (let i = 0; i < 40; i++) {
    const top = await list.evaluate(
      (el) =>
        new Promise<number>((settled) => {
          el.scrollTo({ top: 0 });
          requestAnimationFrame(() => requestAnimationFrame(() => settled(el.scrollTop)));
        }),
    );
    if (top === 0) return;
  }
  throw new Error("the message list did not reach its top");
}

function growth(log: Array<{ busy: boolean; length: number }>): number[] {
  const lengths: number[] = [];
  for (const entry of log) {
    if (entry.busy && entry.length > 0 && entry.length !== lengths.at(-1)) lengths.push(entry.length);
  }
  return lengths;
}

// ---------------------------------------------------------------------------------------------

describe("chat with the bundled model", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    const model = process.env.HEARTH_E2E_LLM_MODEL;
    const env: Record<string, string> = {
      HEARTH_REVIEW_PUBLIC_BOTS: "false",
      LLM_THREADS: "1",
      // Guests reach their daily limit after two messages here.
      HEARTH_DAILY_LIMIT_GUEST: "2",
    };
    if (model) env.LLM_MODEL = model;
    else if (!existsSync(join(repoRoot, "models/hearth-tiny.gguf"))) {
      throw new Error("models/hearth-tiny.gguf is missing (or set HEARTH_E2E_LLM_MODEL to a GGUF file)");
    }
    [server, browser] = await Promise.all([startServer({ env }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("streams a reply, regenerates, steps through alternatives, continues, and lists the chat", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Rowan Reader");
    const character = await createCharacter(context, {
      name: "Captain Mirelle",
      greeting: "*adjusts her goggles and grins* Welcome aboard the **Windrunner**, traveler!",
      persona: "A bold sky pirate who loves the open air.",
    });

    await openChat(page, character);
    await page.getByText("This is the beginning of your conversation with Captain Mirelle.").waitFor();
    // The bundled model says it is a demo, once per browser session.
    const models = (await (await context.request.get("/api/models")).json()) as ModelList;
    const demo = models.models.find((m) => m.id === models.selected_id)?.is_demo ?? false;
    const demoNotice = page.getByText("You're chatting with Hearth's tiny demo model; replies are simple.");
    if (demo) await demoNotice.waitFor();
    await expect
      .poll(() => botBubbles(page).first().locator("em").textContent())
      .toBe("adjusts her goggles and grins");
    expect(await page.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    await shot(page, "chat-empty-1280");

    // Share this Chatbot: a link to its chat page; chats stay private.
    await page.getByRole("button", { name: "Share this Chatbot" }).click();
    const share = page.getByRole("dialog", { name: "Share this Chatbot" });
    await share.getByText("Your chats remain private.", { exact: false }).waitFor();
    expect(await share.getByRole("textbox", { name: "Link to share" }).inputValue()).toBe(
      `${server.url}/chat/${character.id}`,
    );
    await page.keyboard.press("Escape");
    await share.waitFor({ state: "detached" });

    // Send: the user's message shows at once, then the typing indicator, then the reply's text.
    const log = await recordStreaming(page);
    await messageBox(page).fill("Hello! Where are we flying today?");
    await messageBox(page).press("Enter");
    await userBubbles(page).last().getByText("Hello! Where are we flying today?").waitFor();
    expect(await messageBox(page).inputValue()).toBe("");
    await waitIdle(page);
    const entries = await log();
    expect(entries.some((e) => e.busy && e.typing && e.length === 0)).toBe(true);
    expect(entries.at(-1)?.length ?? 0).toBeGreaterThan(0);
    const conversationId = conversationIdOf(page);
    const first = await lastStoredReply(context, conversationId);
    expect(first.content.length).toBeGreaterThan(0);

    // Regenerate: a second alternative; arrows and buttons step between them.
    await page.getByRole("button", { name: "Regenerate" }).click();
    await waitIdle(page);
    await expect.poll(() => counter(page).textContent()).toBe("2/2");
    const second = await lastStoredReply(context, conversationId);
    expect(second.alternative_count).toBe(2);

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => counter(page).textContent()).toBe("1/2");
    expect((await lastStoredReply(context, conversationId)).content).toBe(first.content);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => counter(page).textContent()).toBe("2/2");
    await page.getByRole("button", { name: "Previous alternative" }).click();
    await expect.poll(() => counter(page).textContent()).toBe("1/2");
    await page.getByRole("button", { name: "Next alternative" }).click();
    await expect.poll(() => counter(page).textContent()).toBe("2/2");
    // Not while typing in the message box.
    await messageBox(page).focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForTimeout(300);
    expect(await counter(page).textContent()).toBe("2/2");

    // Continue: the last reply builds on its own text.
    const before = await lastStoredReply(context, conversationId);
    await page.getByRole("button", { name: "Continue" }).click();
    await waitIdle(page);
    const after = await lastStoredReply(context, conversationId);
    expect(after.id).toBe(before.id);
    expect(after.content.startsWith(before.content)).toBe(true);
    expect(after.content.length).toBeGreaterThanOrEqual(before.content.length);

    // Copy from the message menu, with a confirmation.
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Message actions" }).last().click();
    await page.getByRole("menuitem", { name: "Copy" }).click();
    await page.getByRole("status").filter({ hasText: "Copied" }).waitFor();

    // A reload shows the same conversation.
    await page.reload();
    await expect.poll(() => counter(page).textContent()).toBe("2/2");
    await expect.poll(() => userBubbles(page).count()).toBe(1);

    // The chat is on /chats, reached from the navigation.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chats" }).click();
    await page.getByRole("heading", { level: 1, name: "Your Previous Conversations" }).waitFor();
    const item = page.getByRole("link").filter({ hasText: "Captain Mirelle" });
    await item.waitFor();
    await shot(page, "chats-list-1280");
    await item.click();
    await page.waitForURL(`${server.url}/chat/${character.id}/${conversationId}`);
    await expect.poll(() => counter(page).textContent()).toBe("2/2");

    // Start New Chat keeps the old one; both are listed for the character and one can be deleted.
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("menuitem", { name: "Start New Chat" }).click();
    await page.waitForURL(
      (url) => url.pathname.startsWith(`/chat/${character.id}/`) && !url.pathname.endsWith(conversationId),
    );
    await expect.poll(() => userBubbles(page).count()).toBe(0);
    expect(await demoNotice.count()).toBe(0);
    // A chat nobody has written in is not a saved chat yet: write in it first.
    await messageBox(page).fill("A new voyage, then.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await waitIdle(page);
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("menuitem", { name: "View Saved Chats" }).click();
    await page.getByRole("heading", { level: 1, name: "Last Conversations with Captain Mirelle" }).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Continue to Chat" }).count()).toBe(2);
    await page.getByRole("button", { name: "Delete Conversation" }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete Conversation" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Continue to Chat" }).count()).toBe(1);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the error banner with its countdown, then resubmits", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Error Tester");
    const character = await createCharacter(context, { name: "Old Bram", greeting: "*pours tea* Sit, sit." });
    await openChat(page, character);

    let refused = false;
    await page.route("**/api/generate", async (route) => {
      if (refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: "internal", message: "The model server is restarting." }),
      });
    });
    await messageBox(page).fill("Is the tea ready?");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const banner = page
      .getByRole("alert")
      .filter({ hasText: "There was an error processing the last request." });
    await banner.getByText("(The model server is restarting.)").waitFor();
    await banner.getByText(/You can try again in (5|4\.5|4) seconds/).waitFor();
    await page.getByText("Not sent").waitFor();
    const resubmit = banner.getByRole("button", { name: "Resubmit" });
    expect(await resubmit.isDisabled()).toBe(true);
    await page.waitForTimeout(1_000);
    await shot(page, "chat-error-1280");
    const progress = Number(await banner.getByRole("progressbar").getAttribute("aria-valuenow"));
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(5);

    await expect.poll(() => resubmit.isDisabled(), { timeout: 7_000 }).toBe(false);
    await banner.getByText("You can try again now.").waitFor();
    await resubmit.click();
    await banner.waitFor({ state: "detached" });
    await waitIdle(page);
    expect(await page.getByText("Not sent").count()).toBe(0);
    await expect.poll(() => userBubbles(page).count()).toBe(1);
    const stored = await lastStoredReply(context, conversationIdOf(page));
    expect(stored.content.length, JSON.stringify(stored)).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("fits a 390 px phone, and Enter adds a line on touch screens", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width: 390 });
    await signUp(context, "Phone Person");
    const character = await createCharacter(context, {
      name: "Lady Evangeline Thistlewood-Hartley",
      greeting: "*looks up from a thick book* Oh! I didn't hear you come in. Do sit down.",
    });
    await openChat(page, character);
    await shot(page, "chat-empty-390");

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const input = await messageBox(page).boundingBox();
    expect(input && input.y + input.height).toBeLessThanOrEqual(844);
    expect(await page.getByText("All chats are fictional AI stories.").isVisible()).toBe(true);
    expect(
      await page.getByText("All conversations are fictional AI storytelling for entertainment.").isVisible(),
    ).toBe(false);
    // The header keeps avatar and name in view.
    await page.getByRole("heading", { level: 1, name: character.name }).waitFor();

    await messageBox(page).fill("What are you reading?");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await waitIdle(page);
    await shot(page, "chat-reply-390");

    let refused = false;
    await page.route("**/api/generate", async (route) => {
      if (refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ code: "unavailable", message: "The model is busy." }),
      });
    });
    await messageBox(page).fill("Tell me more");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByText("You can try again in", { exact: false }).waitFor();
    await shot(page, "chat-error-390");

    await page.goto("/chats");
    await page.getByRole("link").filter({ hasText: character.name }).waitFor();
    await shot(page, "chats-list-390");
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(pageErrors).toEqual([]);

    // A phone: Enter is a new line, the send button sends.
    const touch = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      colorScheme: "dark",
      storageState: await context.storageState(),
    });
    const phone = await touch.newPage();
    await phone.goto(`/chat/${character.id}`);
    await messageBox(phone).waitFor();
    await messageBox(phone).fill("line one");
    await messageBox(phone).press("Enter");
    await messageBox(phone).pressSequentially("line two");
    expect(await messageBox(phone).inputValue()).toBe("line one\nline two");
    await touch.close();
    await context.close();
  });

  it("lets a guest chat without saving: guest banner, no Chats link, no saved chats", async () => {
    const owner = await newPage(browser, server);
    await signUp(owner.context, "Bot Owner");
    const character = await createCharacter(owner.context, {
      name: "Pip the Sprite",
      greeting: "*flutters* Hi hi!",
    });
    await owner.context.close();

    const { context, page, pageErrors } = await newPage(browser, server);
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    expect(
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chats" }).count(),
    ).toBe(0);

    await openChat(page, character);
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("menuitem", { name: "Start New Chat" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "View Saved Chats" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    await messageBox(page).fill("Hello little one");
    await messageBox(page).press("Enter");
    await waitIdle(page);
    expect(await userBubbles(page).count()).toBe(1);

    // The guest limit (two messages on this server): a guest title, Sign Up Free, input off.
    await messageBox(page).fill("Can you fly?");
    await messageBox(page).press("Enter");
    await waitIdle(page);
    await messageBox(page).fill("One more question");
    await messageBox(page).press("Enter");
    const limit = page.getByRole("alert").filter({ hasText: "You've used up the guest messages" });
    await limit.waitFor();
    await limit.getByRole("link", { name: "Sign Up Free" }).waitFor();
    expect(await messageBox(page).isDisabled()).toBe(true);
    // The refused words are handed back, not lost.
    expect(await messageBox(page).inputValue()).toBe("One more question");
    expect(await userBubbles(page).count()).toBe(2);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("refuses a private bot of someone else with the invalidAccess message", async () => {
    const owner = await newPage(browser, server);
    await signUp(owner.context, "Private Owner");
    const secret = await createCharacter(owner.context, {
      name: "Secret Diary",
      greeting: "Shh.",
      visibility: "private",
    });
    await owner.context.close();

    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Curious Visitor");
    await page.goto(`/chat/${secret.id}`);
    const refusal = page
      .getByRole("alert")
      .filter({ hasText: "You are not allowed to chat with this character." });
    await refusal.getByText("It's either private or deleted.", { exact: false }).waitFor();
    expect(await refusal.getByRole("button", { name: /dismiss/i }).count()).toBe(0);
    expect(await messageBox(page).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("loads previous messages above without moving the one being read, and marks the context cut", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "History Buff");
    const character = await createCharacter(context, {
      name: "Chronicler",
      greeting: "Shall I tell you a story?",
    });
    await openChat(page, character);
    const conversationId = conversationIdOf(page);

    // Sixty messages: the newest page (m30..m59, more before it) and the one before it.
    const messages = Array.from({ length: 60 }, (_, i) => ({
      id: `m${i}`,
      conversation_id: conversationId,
      role: i % 2 ? "user" : "bot",
      content: `Entry ${i}. ${"The tale goes on. ".repeat(1 + (i % 4))}`,
      state: "complete",
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      image_url: null,
      image_prompt: null,
      rating: null,
      alternative_index: 0,
      alternative_count: 1,
    }));
    await page.route(`**/api/conversations/${conversationId}/messages**`, (route) => {
      const before = new URL(route.request().url()).searchParams.get("before");
      const page = before
        ? { messages: messages.slice(0, 30), has_more: false }
        : { messages: messages.slice(30), has_more: true };
      return route.fulfill({ contentType: "application/json", body: JSON.stringify(page) });
    });
    // Messages before m40 no longer fit the model's context.
    await page.route(`**/api/conversations/${conversationId}`, async (route) => {
      const response = await route.fetch();
      const conversation = (await response.json()) as Conversation;
      await route.fulfill({ response, json: { ...conversation, context_start_message_id: "m40" } });
    });
    await page.reload();
    await page.getByText("Entry 59.").waitFor();
    const list = page.getByRole("log", { name: "Messages" });
    // Scrolling up, the cut shows just above the first message still sent to the model.
    const divider = page.getByText("Messages above are no longer used for generation");
    for (let i = 0; i < 40 && !(await divider.isVisible()); i++) {
      await list.evaluate((el) => el.scrollBy({ top: -200 }));
      await page.waitForTimeout(30);
    }
    const cut = await divider.boundingBox();
    const firstInContext = await page.locator('[data-message-id="m40"] [data-message-bubble]').boundingBox();
    expect(cut && firstInContext && cut.y < firstInContext.y).toBe(true);

    const load = page.getByRole("button", { name: "Load Previous Messages" });
    await scrollToTop(page);
    const anchor = page.locator('[data-message-id="m30"]');
    const before = (await anchor.boundingBox())?.y;
    await load.click();
    await page.locator('[data-message-id="m29"]').waitFor();
    await page.waitForTimeout(300);
    const after = (await anchor.boundingBox())?.y;
    expect(before).toBeDefined();
    expect(Math.abs((after ?? 0) - (before ?? 0))).toBeLessThanOrEqual(2);

    await scrollToTop(page);
    await page.getByText("This is the beginning of your conversation with Chronicler.").waitFor();
    await page.getByText("Entry 0.").waitFor();
    expect(await load.count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("keeps only the rows near the viewport in the DOM for a 10,000-message conversation", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Long Talker");
    const character = await createCharacter(context, { name: "Archivist", greeting: "Ask me anything." });
    await openChat(page, character);
    const conversationId = conversationIdOf(page);

    // The server's newest page, standing in for a conversation of 10,000 loaded messages.
    const total = 10_000;
    const messages = Array.from({ length: total }, (_, i) => ({
      id: `m${i}`,
      conversation_id: conversationId,
      role: i % 2 ? "user" : "bot",
      content: `Message ${i}. ${"Lorem ipsum dolor sit amet. ".repeat(1 + (i % 7))}`,
      state: "complete",
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
      image_url: null,
      image_prompt: null,
      rating: null,
      alternative_index: 0,
      alternative_count: 1,
    }));
    await page.route(`**/api/conversations/${conversationId}/messages**`, (route) =>
      route.fulfill({ contentType: "application/json", body: JSON.stringify({ messages, has_more: false }) }),
    );
    await page.reload();
    await page.getByText(`Message ${total - 2}.`).waitFor();
    const rows = () => page.locator("[data-message-row]").count();
    expect(await rows()).toBeLessThan(40);

    // Scroll all the way up: still only a screenful of rows, and the start of history shows.
    await scrollToTop(page);
    await page.getByText("This is the beginning of your conversation with Archivist.").waitFor();
    await page.getByText("Message 0.", { exact: false }).first().waitFor();
    expect(await rows()).toBeLessThan(40);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

// ---------------------------------------------------------------------------------------------
// A slow model and a connection that can be cut

/** Words the stand-in model writes, one per chunk. */
const slowReply = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
const slowContinuation = " and then the storm came.";
const wordDelayMs = 60;

/** An OpenAI-compatible chat endpoint that streams `slowReply` slowly (continuations: `slowContinuation`). */
function startSlowModel(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      const request = JSON.parse(body) as { continue_final_message?: boolean };
      const text = request.continue_final_message ? slowContinuation : slowReply;
      const pieces = text.match(/\s*\S+/g) ?? [];
      res.writeHead(200, { "content-type": "text/event-stream" });
      let closed = false;
      res.on("close", () => {
        closed = true;
      });
      const chunk = (delta: Record<string, string>, finish: string | null) =>
        `data: ${JSON.stringify({
          id: "slow",
          object: "chat.completion.chunk",
          created: 0,
          model: "slow",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }, null));
      for (const piece of pieces) {
        await new Promise((wait) => setTimeout(wait, wordDelayMs));
        if (closed) return;
        res.write(chunk({ content: piece }, null));
      }
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** A TCP proxy in front of Hearth whose connections can all be cut at once (a network drop). */
async function startProxy(
  target: number,
): Promise<{ url: string; drop: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const proxy = createTcpServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((done) => proxy.listen(port, "127.0.0.1", () => done()));
  return {
    url: `http://localhost:${port}`,
    drop: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => done());
      }),
  };
}

const plain = (text: string) => text.replace(/\*/g, "").replace(/\s+/g, " ").trim();

describe("chat with a slow model", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: Awaited<ReturnType<typeof startSlowModel>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;

  beforeAll(async () => {
    model = await startSlowModel();
    [server, browser] = await Promise.all([
      startServer({
        env: { LLM_BASE_URL: model.url, LLM_MODEL: "slow", HEARTH_REVIEW_PUBLIC_BOTS: "false" },
      }),
      launchBrowser(),
    ]);
    proxy = await startProxy(server.port);
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await server?.stop();
    await model?.close();
  });

  /** A page that talks to Hearth through the proxy. */
  async function proxiedPage(width = 1280) {
    const opened = await newPage(browser, { ...server, url: proxy.url }, { width });
    await signUp(opened.context, "Storm Watcher");
    const character = await createCharacter(opened.context, {
      name: "Weather Witch",
      greeting: [
        "*sniffs the wind* A storm is coming.",
        "The crows flew low this morning, and the milk soured before noon. Old signs, but true ones.",
        "*taps the barometer twice* Falling, falling. By nightfall the valley will hear the thunder.",
        "Sit by the fire if you like. Ask what you came to ask, and I will tell you what the sky tells me.",
      ].join("\n\n"),
    });
    await openChat(opened.page, character);
    return { ...opened, character };
  }

  it("streams word by word stuck to the bottom, keeps still when scrolled up, and stops mid-reply", async () => {
    const { context, page, pageErrors } = await proxiedPage();
    // Enough history to scroll: a few quick exchanges, each stopped after a word or two.
    const log = await recordStreaming(page);
    const scroll = await recordScroll(page, null);
    await messageBox(page).fill("Will it rain?");
    await messageBox(page).press("Enter");
    await expect
      .poll(async () => (await botBubbles(page).last().textContent())?.length ?? 0)
      .toBeGreaterThan(60);
    await shot(page, "chat-streaming-1280");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await waitIdle(page);
    const frames = await scroll();
    const lengths = growth(await log());
    expect(lengths.length).toBeGreaterThanOrEqual(3);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    // Stuck to the bottom on (nearly) every frame while the text grew.
    const off = frames.filter((frame) => frame.fromEnd > 2).length;
    expect(off / frames.length).toBeLessThan(0.05);

    // The partial reply stays, marked as stopped, also after a reload.
    const conversationId = conversationIdOf(page);
    const stopped = await lastStoredReply(context, conversationId);
    expect(stopped.state).toBe("stopped");
    expect(stopped.content.length).toBeGreaterThan(0);
    expect(stopped.content.length).toBeLessThan(slowReply.length);
    expect(slowReply.startsWith(stopped.content.trim())).toBe(true);
    await page.getByText("Stopped").waitFor();
    await page.reload();
    await page.getByText("Stopped").waitFor();
    expect(plain((await botBubbles(page).last().textContent()) ?? "")).toBe(plain(stopped.content));

    // Scrolled up while a reply streams: the message being read doesn't move.
    await messageBox(page).fill("And tomorrow?");
    await messageBox(page).press("Enter");
    await expect
      .poll(async () => (await botBubbles(page).last().textContent())?.length ?? 0)
      .toBeGreaterThan(20);
    const list = page.getByRole("log", { name: "Messages" });
    await list.hover();
    await page.mouse.wheel(0, -250);
    await page.waitForTimeout(300);
    const firstId = await page.locator("[data-message-id]").first().getAttribute("data-message-id");
    const still = await recordScroll(page, firstId);
    await page.waitForTimeout(1_000);
    const steady = (await still()).map((frame) => frame.anchorTop);
    expect(steady.length).toBeGreaterThan(10);
    expect(new Set(steady).size, JSON.stringify(steady)).toBe(1);
    await page.getByRole("button", { name: "Jump to the newest message" }).click();
    await waitIdle(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("makes the last reply longer with Continue, and Suggest writes into the box without sending", async () => {
    const { context, page, pageErrors } = await proxiedPage();
    const before = await lastStoredReply(context, conversationIdOf(page));
    await page.getByRole("button", { name: "Continue" }).click();
    await waitIdle(page);
    const after = await lastStoredReply(context, conversationIdOf(page));
    expect(after.content).toBe(before.content + slowContinuation);
    await expect
      .poll(async () => plain((await botBubbles(page).last().textContent()) ?? ""))
      .toBe(plain(after.content));

    await page.getByRole("button", { name: "Suggest a reply" }).click();
    await expect.poll(async () => (await messageBox(page).inputValue()).length).toBeGreaterThan(10);
    expect(await messageBox(page).getAttribute("readonly")).not.toBeNull();
    await waitIdle(page);
    await expect.poll(() => messageBox(page).inputValue()).toBe(slowReply);
    expect(await messageBox(page).getAttribute("readonly")).toBeNull();
    expect(await userBubbles(page).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("resumes a reply after the connection drops, without losing or repeating words", async () => {
    const { context, page, pageErrors } = await proxiedPage();
    await messageBox(page).fill("Tell me everything");
    await messageBox(page).press("Enter");
    await expect
      .poll(async () => (await botBubbles(page).last().textContent())?.length ?? 0)
      .toBeGreaterThan(30);
    proxy.drop();
    await waitIdle(page);
    expect(plain((await botBubbles(page).last().textContent()) ?? "")).toBe(slowReply);
    expect((await lastStoredReply(context, conversationIdOf(page))).content.trim()).toBe(slowReply);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("follows a reply still being written when the chat is opened again", async () => {
    const { context, page, pageErrors } = await proxiedPage(390);
    await messageBox(page).fill("What do the clouds say?");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect
      .poll(async () => (await botBubbles(page).last().textContent())?.length ?? 0)
      .toBeGreaterThan(40);
    await shot(page, "chat-streaming-390");
    await page.reload();
    await expect.poll(() => botBubbles(page).last().getAttribute("aria-busy")).toBe("true");
    await waitIdle(page);
    expect(plain((await botBubbles(page).last().textContent()) ?? "")).toBe(slowReply);
    const list = (await (await context.request.get("/api/conversations")).json()) as ConversationList;
    const conversation: Conversation | undefined = list.conversations.find(
      (c) => c.id === conversationIdOf(page),
    );
    expect(conversation?.active_generation_id).toBeNull();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

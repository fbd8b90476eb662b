import { join } from "node:path";
import type { Me } from "@hearth/contract";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type HearthServer,
  launchBrowser,
  newPage,
  screenshots,
  startServer,
  uniqueUsername,
} from "./harness.ts";

/**
 * Issue 9, "First run that works", on a fresh install with the demo characters: a visitor gets
 * from a character card to a streamed reply by clicking; a share link offers Continue as guest
 * and Sign in; the first account to sign up becomes the administrator; keyboard paths.
 */

const shot = screenshots("first-run", { fullPage: true });

const guestBanner = "You're chatting as a guest. Your chats are not saved.";
const botBubbles = (page: Page) => page.locator('[data-role="bot"] [data-message-bubble]');
const userBubbles = (page: Page) => page.locator('[data-role="user"] [data-message-bubble]');
const messageBox = (page: Page) => page.getByRole("textbox", { name: /^Message / });
const chatUrl = /\/chat\/[^/]+\/[^/]+$/;

let server: HearthServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      emptyDataDir: true,
      // Six guests start from this one address (three per width): more than a day's default allowance.
      env: { HEARTH_SEED_DEMO: "true", HEARTH_FIRST_USER_ADMIN: "true", HEARTH_GUEST_SIGNINS_PER_DAY: "0" },
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The first demo character on the home page: its card link and name. */
async function firstCard(page: Page) {
  await page.goto("/");
  const link = page.getByRole("list", { name: "Characters" }).locator("[data-card-link]").first();
  await link.waitFor();
  return { link, name: (await link.innerText()).trim() };
}

/** Records the last bot bubble on every change: busy or not, and how much text it holds. */
async function recordReply(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __reply: Array<{ busy: boolean; length: number }> };
    w.__reply = [];
    new MutationObserver(() => {
      const bubbles = document.querySelectorAll('[data-role="bot"] [data-message-bubble]');
      const last = bubbles[bubbles.length - 1];
      if (last) {
        w.__reply.push({
          busy: last.getAttribute("aria-busy") === "true",
          length: last.textContent?.length ?? 0,
        });
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __reply: Array<{ busy: boolean; length: number }> }).__reply);
}

/** Sends a message and waits for the whole reply; answers what streamed in the meantime. */
async function sendAndAwaitReply(page: Page, text: string) {
  const bots = await botBubbles(page).count();
  const log = await recordReply(page);
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
  await userBubbles(page).last().getByText(text).waitFor();
  await page.getByRole("button", { name: "Send", exact: true }).waitFor({ timeout: 90_000 });
  await expect.poll(() => botBubbles(page).count()).toBe(bots + 1);
  await expect.poll(() => botBubbles(page).last().getAttribute("aria-busy")).toBeNull();
  return { entries: await log(), reply: (await botBubbles(page).last().innerText()).trim() };
}

describe.each([390, 1280])("first run at %i px", (width) => {
  it("a signed-out visitor clicks a character card, reads the profile, and chats as a guest", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width });
    const card = await firstCard(page);
    await card.link.click();
    await page.waitForURL(/\/chatbot\/[^/]+$/);
    const characterId = new URL(page.url()).pathname.split("/")[2] ?? "";
    await page.getByRole("heading", { level: 1, name: card.name }).waitFor();

    // The greeting as the chat shows it: Markdown actions, {{user}} resolved for a visitor.
    const greeting = page.locator("section").filter({ has: page.getByRole("heading", { name: "Greeting" }) });
    await greeting.locator("em").first().waitFor();
    expect(await greeting.innerText()).not.toMatch(/\{\{|\*/);
    const signedOutGreeting = (await greeting.innerText())
      .replace(/^Greeting\s*/i, "")
      .replace(/\s*Show more$/, "");

    await shot(page, `profile-signed-out-${width}`);

    await page.getByRole("link", { name: "Chat Now" }).click();
    await page.waitForURL(`${server.url}/chat/${characterId}`);
    await page.getByRole("heading", { name: `Chat with ${card.name}` }).waitFor();
    await page.getByRole("button", { name: "Continue as guest" }).click();

    await page.waitForURL(chatUrl);
    await page.getByText(guestBanner).waitFor();
    await page.getByRole("heading", { level: 1, name: card.name }).waitFor();
    await botBubbles(page).first().waitFor();
    // The message box has the keyboard as soon as the chat opens.
    await expect.poll(() => messageBox(page).evaluate((box) => box === document.activeElement)).toBe(true);
    // The chat's greeting is the profile's, word for word, now that the visitor is a guest.
    const chatGreeting = await botBubbles(page).first().innerText();
    expect(chatGreeting).toContain("Guest");
    expect(chatGreeting.replace(/\s+/g, " ").trim()).toContain(
      signedOutGreeting.replace(/\s+/g, " ").trim().slice(0, 200),
    );

    const { entries, reply } = await sendAndAwaitReply(page, "Hello! Is there room by the fire?");
    expect(entries.some((entry) => entry.busy)).toBe(true);
    // Part of the reply shows while it is still being written. A reply of a few tokens can come
    // with its `done` in one network read and be drawn once (it did on a loaded CI machine), so
    // only a reply long enough to take several reads must show it.
    if (reply.split(/\s+/).length >= 8) {
      expect(entries.some((entry) => entry.busy && entry.length > 0)).toBe(true);
    }
    expect(reply.length).toBeGreaterThan(0);
    await shot(page, `guest-chat-${width}`);

    // As a guest, the card leads to the profile too (not to sign-in), with the same greeting.
    await page.goto("/");
    await page.getByText(guestBanner).waitFor();
    const again = await firstCard(page);
    await again.link.click();
    await page.waitForURL(`${server.url}/chatbot/${characterId}`);
    const profileGreeting = page
      .locator("section")
      .filter({ has: page.getByRole("heading", { name: "Greeting" }) })
      .locator("em")
      .first();
    expect(chatGreeting).toContain((await profileGreeting.innerText()).trim());
    expect(await greeting.innerText()).toContain("Guest");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a share link offers Continue as guest and Sign in, and either way ends in the chat", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width });
    const card = await firstCard(page);
    const href = await card.link.getAttribute("href");
    const characterId = href?.split("/")[2] ?? "";

    await page.goto(`/chat/${characterId}`);
    await page.getByRole("heading", { name: `Chat with ${card.name}` }).waitFor();
    await page.getByRole("button", { name: "Continue as guest" }).waitFor();
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).waitFor();
    expect(await page.getByText("Try again").count()).toBe(0);
    expect(await page.getByText("couldn't be opened").count()).toBe(0);
    await shot(page, `share-link-${width}`);

    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.waitForURL(new RegExp(`/chat/${characterId}/[^/]+$`));
    await page.getByText(guestBanner).waitFor();
    await messageBox(page).waitFor();
    await context.close();

    // The other way in: Sign in, and the sign-in page's own Continue as guest.
    const second = await newPage(browser, server, { width });
    await second.page.goto(`/chat/${characterId}`);
    await second.page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await second.page.waitForURL((url) => url.pathname === "/sign-in");
    expect(new URL(second.page.url()).searchParams.get("redirect")).toBe(`/chat/${characterId}`);
    await second.page.getByRole("button", { name: "Continue as guest" }).click();
    await second.page.waitForURL(new RegExp(`/chat/${characterId}/[^/]+$`));
    await second.page.getByText(guestBanner).waitFor();
    expect([...pageErrors, ...second.pageErrors]).toEqual([]);
    await second.context.close();
  });
});

describe("keyboard", () => {
  it("skips past the tag filters to the first card, which shows a focus ring", async () => {
    const { context, page } = await newPage(browser, server);
    await firstCard(page);
    await page.getByRole("group", { name: "Filter by tag" }).waitFor();
    const skip = page.getByRole("link", { name: "Skip to the characters" });
    await skip.focus();
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      const card = active.closest("article") as HTMLElement;
      return { isCard: active.hasAttribute("data-card-link"), outline: getComputedStyle(card).outlineStyle };
    });
    expect(focused).toEqual({ isCard: true, outline: "solid" });
    await page.screenshot({ path: join(shot.dir, "card-focus-1280.png") });
    await context.close();
  });
});

describe("the first administrator", () => {
  it("the sign-up page says so on a fresh install; the first account is admin, the next is not", async () => {
    // The demo characters' owner and the guests of the tests above don't count.
    const first = await newPage(browser, server, { width: 390 });
    await first.page.goto("/sign-up");
    await first.page.getByText("You're the first one here").waitFor();
    await shot(first.page, "sign-up-first-admin-390");
    await first.page.getByLabel("Username").fill(uniqueUsername("founder"));
    await first.page.getByLabel("Display name").fill("Founder");
    await first.page.getByLabel("Email").fill("founder@example.com");
    await first.page.getByLabel("Password").fill("founder-password-1");
    await first.page.getByRole("button", { name: "Create account" }).click();
    await first.page.waitForURL(`${server.url}/`);
    const founder = (await (await first.context.request.get("/api/me")).json()) as Me;
    expect(founder.is_admin).toBe(true);
    await first.page.goto("/admin/users");
    await first.page.getByRole("heading", { name: "Users" }).waitFor();
    await first.context.close();

    const next = await newPage(browser, server);
    await next.page.goto("/sign-up");
    await next.page.getByRole("heading", { name: "Create your account" }).waitFor();
    expect(await next.page.getByText("You're the first one here").count()).toBe(0);
    const response = await next.context.request.post("/api/auth/sign-up/email", {
      data: {
        email: "second@example.com",
        password: "second-password-1",
        name: "Second",
        username: uniqueUsername("second"),
      },
    });
    expect(response.status()).toBe(200);
    expect(((await (await next.context.request.get("/api/me")).json()) as Me).is_admin).toBe(false);
    await next.context.close();
  });
});

describe("with HEARTH_GUESTS=false", () => {
  let closed: HearthServer;
  beforeAll(async () => {
    closed = await startServer({ env: { HEARTH_SEED_DEMO: "true", HEARTH_GUESTS: "false" } });
  });
  afterAll(async () => {
    await closed?.stop();
  });

  it("the profile stays readable; a chat offers only Sign in", async () => {
    const { context, page, pageErrors } = await newPage(browser, closed, { width: 390 });
    const card = await firstCard(page);
    await card.link.click();
    await page.waitForURL(/\/chatbot\/[^/]+$/);
    await page.getByRole("link", { name: "Chat Now" }).click();
    await page.getByRole("heading", { name: `Chat with ${card.name}` }).waitFor();
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("button", { name: "Continue as guest" }).count()).toBe(0);
    expect(await page.getByText("Try again").count()).toBe(0);
    await shot(page, "share-link-no-guests-390");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

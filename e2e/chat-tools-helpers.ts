import type { Character, GenerateRequest, Message, MessagePage } from "@hearth/contract";
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { screenshots, uniqueUsername } from "./harness.ts";

/** Shared by chat-tools.test.ts and personas.test.ts: accounts, chats and screenshots. */

/** A screenshot under /tmp/shots-tools, once dialogs and colour transitions have settled. */
export const shot = screenshots("tools", { settleMs: 250 });

/** The same screenshot at a phone's width too (name-1280 and name-390). */
export async function shotBoth(page: Page, name: string) {
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

export const password = "correct horse battery";
let accounts = 0;

export async function signUp(context: BrowserContext, name: string) {
  const email = `tools-${Date.now()}-${++accounts}@example.com`;
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email, password, name, username: uniqueUsername(name) },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function signIn(context: BrowserContext, email: string) {
  const response = await context.request.post("/api/auth/sign-in/email", { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

export async function createCharacter(
  context: BrowserContext,
  name: string,
  fields: Record<string, unknown> = {},
): Promise<Character> {
  const response = await context.request.post("/api/characters?switch=T1", {
    data: {
      visibility: "public",
      title: "Keeper of the lighthouse",
      name,
      greeting: "*trims the lamp* Another storm tonight. Come in, come in.",
      persona: "An old lighthouse keeper with many stories.",
      ...fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Character;
}

export const botBubbles = (page: Page) => page.locator('[data-role="bot"] [data-message-bubble]');
export const userBubbles = (page: Page) => page.locator('[data-role="user"] [data-message-bubble]');
export const messageBox = (page: Page) => page.getByRole("textbox", { name: /^Message / });

export async function openChatMenu(page: Page) {
  await page.getByRole("button", { name: "Chat menu" }).click();
  await page.getByRole("menu").waitFor();
}

/** The send button is back and no reply is being written. */
export async function waitIdle(page: Page, timeout = 60_000) {
  await page.getByRole("button", { name: "Send", exact: true }).waitFor({ timeout });
  await expect.poll(() => botBubbles(page).last().getAttribute("aria-busy"), { timeout }).toBeNull();
}

export function conversationIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split("/")[3];
  if (!id) throw new Error(`not on a conversation: ${page.url()}`);
  return id;
}

export async function openChat(page: Page, character: Character) {
  await page.goto(`/chat/${character.id}`);
  await page.waitForURL(new RegExp(`/chat/${character.id}/[^/]+$`));
  await page.getByRole("heading", { level: 1, name: character.name }).waitFor();
  await botBubbles(page).first().waitFor();
}

export async function send(page: Page, text: string) {
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
  await userBubbles(page).filter({ hasText: text }).waitFor();
  await waitIdle(page);
}

export async function storedMessages(context: BrowserContext, conversationId: string): Promise<Message[]> {
  const response = await context.request.get(`/api/conversations/${conversationId}/messages?limit=100`);
  return ((await response.json()) as MessagePage).messages;
}

/** The bodies of POST /api/generate requests the page makes from now on. */
export function recordGenerate(page: Page): GenerateRequest[] {
  const bodies: GenerateRequest[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/generate") {
      bodies.push(request.postDataJSON() as GenerateRequest);
    }
  });
  return bodies;
}

export { png } from "./png.ts";

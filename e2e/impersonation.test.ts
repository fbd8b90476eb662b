import type { AuditLogPage, Character, ConversationCreated, Me } from "@hearth/contract";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkA11y } from "./a11y.ts";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  screenshots,
  startServer,
  uniqueUsername,
} from "./harness.ts";

/**
 * An administrator views the site as a member from /admin/users (accounts-billing-admin §2.2, the
 * impersonation banner): confirms, sees the banner and the member's chats, has a chat message
 * refused with the server's words, stops, and is back as themselves on /admin/users.
 */

const shot = screenshots("impersonation");

const PASSWORD = "correct horse battery";
const ADMIN = { email: "ops@example.com", password: PASSWORD, name: "Ops", username: uniqueUsername("ops") };
const me = async (context: BrowserContext) => (await (await context.request.get("/api/me")).json()) as Me;

/** A member who has chatted with their own bot (so the chat is in their list). */
async function memberWithChat(browser: Browser, server: HearthServer, name: string) {
  const context = await browser.newContext({ baseURL: server.url });
  const post = (url: string, data: unknown) =>
    context.request.post(url, { data, headers: { origin: server.url } });
  const username = uniqueUsername(name);
  const signUp = await post("/api/auth/sign-up/email", {
    email: `${username}@example.com`,
    password: PASSWORD,
    name,
    username,
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const { user } = (await signUp.json()) as { user: { id: string } };
  const bot = await post("/api/characters?switch=T1", { name: `Lantern ${name}`, title: "Keeps the light" });
  expect(bot.status(), await bot.text()).toBe(201);
  const character = (await bot.json()) as Character;
  const chat = (await (
    await post("/api/conversations", { character_id: character.id })
  ).json()) as ConversationCreated;
  // The reply streams to its end before the answer completes.
  const sent = await post("/api/generate", {
    type: "text",
    conversation_id: chat.conversation.id,
    action: "send",
    content: "Hello there",
  });
  expect(sent.status()).toBe(200);
  await sent.body();
  await context.close();
  return { id: user.id, username, character };
}

describe("administrators view the site as a member", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    const dataDir = createDataDir();
    createAdmin(dataDir, ADMIN);
    [server, browser] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1280, 390]) {
    it(`views as a member, read-only, and stops (${width} px)`, async () => {
      const name = width > 600 ? "Wren" : "Juno";
      const member = await memberWithChat(browser, server, name);
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      const signIn = await context.request.post("/api/auth/sign-in/email", {
        data: { email: ADMIN.email, password: PASSWORD },
      });
      expect(signIn.status()).toBe(200);

      await page.goto("/admin/users");
      await page.getByRole("searchbox", { name: "Search users" }).fill(member.username);
      const viewAs = page.getByRole("button", { name: `View as ${name}` }).locator("visible=true");
      await viewAs.click();
      const dialog = page.getByRole("dialog", { name: `View the site as ${name}?` });
      await dialog.getByText("read-only, for up to an hour").waitFor();
      await shot(page, `confirm-${width}`);
      await dialog.getByRole("button", { name: `View as ${name}` }).click();

      // The banner on every page, and the member's own chats.
      const banner = page.getByRole("status").filter({ hasText: "Viewing as" });
      await banner.getByText(`Viewing as @${member.username} (read-only)`).waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
      expect(await me(context)).toMatchObject({
        username: member.username,
        impersonated_by: { name: "Ops" },
      });
      await page.goto("/chats");
      await page.getByText(`Lantern ${name}`).first().waitFor();
      await banner.waitFor();
      await shot(page, `chats-${width}`);
      await checkA11y(page);

      // A chat message is refused, and the page says why in the server's words.
      await page.getByText(`Lantern ${name}`).first().click();
      const box = page.getByRole("textbox", { name: /^Message / });
      await box.fill("Can I write as them?");
      await box.press("Enter");
      await page.getByText("You are viewing the site as this user, read-only").first().waitFor();
      // No Resubmit: the view can never send; the words go back to the box.
      expect(await page.getByRole("button", { name: "Resubmit" }).count()).toBe(0);
      await expect.poll(() => box.inputValue()).toBe("Can I write as them?");
      await shot(page, `refused-${width}`);
      await checkA11y(page);

      // Stop: back on /admin/users as the administrator, the banner gone.
      await banner.getByRole("button", { name: "Stop viewing" }).click();
      await page.getByRole("heading", { name: "Users" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin/users");
      await expect.poll(() => banner.count()).toBe(0);
      expect(await me(context)).toMatchObject({
        username: ADMIN.username,
        is_admin: true,
        impersonated_by: null,
      });

      // Both ends are in the audit log, under the administrator's name.
      const log = await context.request.get(`/api/admin/audit-log?target_id=${member.id}`);
      const { entries } = (await log.json()) as AuditLogPage;
      expect(entries.map((e) => [e.action, e.actor_username])).toEqual([
        ["user.impersonation_stop", ADMIN.username],
        ["user.impersonate", ADMIN.username],
      ]);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

import type { AdminAdList, Character, ConversationCreated } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharacter, password, signIn, signUp } from "./chat-tools-helpers.ts";
import {
  createAdmin,
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
 * Ads in chat (issue 17): an administrator defines a house ad in /admin/ads; a free member's chat
 * shows it, labelled and dismissible, once the chat is past the threshold (here more than 4
 * messages), and not before; a subscriber's chat of the same length never shows one. The view
 * and the click are counted for the administrator. At 1280 and 390 px.
 */

const admin = { email: "ada.admin@example.com", name: "Ada Admin", password };
const subscriber = { email: "sam.subscriber@example.com", name: "Sam Subscriber", password };

const shot = screenshots("ads", { settleMs: 250 });

/** A chat with `sends` exchanges made through the API: greeting + 2 messages per send. */
async function chatOf(context: BrowserContext, character: Character, sends: number): Promise<string> {
  const created = await context.request.post("/api/conversations", { data: { character_id: character.id } });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as ConversationCreated).conversation.id;
  for (let i = 0; i < sends; i++) {
    const generated = await context.request.post("/api/generate", {
      data: { conversation_id: id, action: "send", content: `Tell me about storm ${i + 1}.` },
      headers: { accept: "text/event-stream" },
    });
    const stream = await generated.text();
    expect(generated.status(), stream).toBe(200);
    expect(stream).toContain('"type":"done"');
  }
  return id;
}

const adSlots = (page: Page) => page.getByRole("complementary", { name: "Advertisement" });

async function openChat(page: Page, character: Character, id: string) {
  await page.goto(`/chat/${character.id}/${id}`);
  await page.getByRole("heading", { level: 1, name: character.name }).waitFor();
  await page.locator('[data-role="bot"]').last().waitFor();
}

describe("ads in chat", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;
  let character: Character;

  beforeAll(async () => {
    model = await startStandInModel();
    const dataDir = createDataDir();
    createAdmin(dataDir, admin);
    createSubscriber(dataDir, subscriber, "basic");
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: {
          LLM_BASE_URL: model.url,
          LLM_MODEL: "stand-in",
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          HEARTH_ADS_MIN_MESSAGES: "4",
          HEARTH_ADS_INTERVAL: "100",
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

  it("an administrator defines a house ad in /admin/ads", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { colorScheme: "light" });
    await signIn(context, admin.email);
    character = await createCharacter(context, "Keeper Linden", { tags: ["Fantasy"] });
    await page.goto("/admin/ads");
    await page.getByRole("heading", { level: 1, name: "Ads" }).waitFor();
    await page.getByText("No ads yet").waitFor();
    const form = page.getByRole("form", { name: "New ad" });
    await form.getByLabel("Name (only you see it)").fill("Lantern oil");
    await form.getByLabel("Advertiser (optional)").fill("Harbour Supply");
    await form.getByLabel("Text").fill("Lantern oil for long storms, delivered to your lighthouse.");
    await form.getByLabel("Link (https://…)").fill("https://harbour.example/oil");
    await form.getByLabel("Bot tags, comma separated (empty: every bot)").fill("fantasy");
    await shot(page, "admin-form-1280");
    await form.getByRole("button", { name: "Add ad" }).click();
    await page.getByRole("status").filter({ hasText: "Ad Lantern oil added." }).waitFor();
    await page.getByRole("list", { name: "House ads" }).getByText("Lantern oil", { exact: true }).waitFor();
    await shot(page, "admin-list-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "admin-list-390");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  for (const width of [1280, 390]) {
    it(`a free member's chat shows the ad only past the threshold, labelled and dismissible (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context, `Fay Free ${width}`);
      // One exchange: 3 messages, not past the threshold.
      const short = await chatOf(context, character, 1);
      // Opening the chat is logged for the operator's product analytics, without holding it up.
      const opened = page.waitForResponse(
        (r) => r.url().endsWith("/api/event") && (r.request().postData() ?? "").includes('"open_chat"'),
      );
      await openChat(page, character, short);
      expect((await opened).status()).toBe(204);
      await page.waitForLoadState("networkidle");
      expect(await adSlots(page).count()).toBe(0);

      // Two exchanges: 5 messages, more than 4: the slot after the 5th shows the ad.
      const long = await chatOf(context, character, 2);
      const viewed = page.waitForResponse(
        (r) => r.url().endsWith("/api/event") && (r.request().postData() ?? "").includes('"adView"'),
      );
      await openChat(page, character, long);
      const slot = adSlots(page);
      await slot.waitFor();
      expect((await viewed).status()).toBe(204);
      expect(await slot.count()).toBe(1);
      expect(await slot.innerText()).toContain("SPONSORED");
      expect(await slot.innerText()).toContain("Harbour Supply");
      const link = slot.getByRole("link", { name: /Lantern oil for long storms/ });
      expect(await link.getAttribute("href")).toBe("https://harbour.example/oil");
      expect(await link.getAttribute("rel")).toContain("sponsored");
      await shot(page, `chat-ad-${width}`);

      // Dismissed, the slot keeps its height: nothing around it moves.
      const before = await slot.boundingBox();
      await slot.getByRole("button", { name: "Hide this ad" }).click();
      await slot.getByText("Ad hidden").waitFor();
      const after = await slot.boundingBox();
      expect(after?.height).toBe(before?.height);
      await shot(page, `chat-ad-hidden-${width}`);
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }

  it("a subscriber's chat of the same length never shows an ad; the older layout stays for its local mode", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signIn(context, subscriber.email);
    const id = await chatOf(context, character, 3);
    await openChat(page, character, id);
    await page.waitForLoadState("networkidle");
    expect(await adSlots(page).count()).toBe(0);
    // The newer chat layout by default (HEARTH_FLAG_CHAT_LAYOUT_V2); the older one is kept for
    // its local-storage mode: every message on the left under its sender's name.
    expect(await page.locator("[data-chat-layout]").getAttribute("data-chat-layout")).toBe("v2");
    await page.evaluate(() => localStorage.setItem("hearth.chat.layout", JSON.stringify("classic")));
    await openChat(page, character, id);
    expect(await page.locator("[data-chat-layout]").getAttribute("data-chat-layout")).toBe("classic");
    await page.locator('[data-role="user"]').first().getByText("You", { exact: true }).waitFor();
    await shot(page, "chat-classic-1280");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("the administrator sees the views counted", async () => {
    const { context } = await newPage(browser, server);
    await signIn(context, admin.email);
    const response = await context.request.get("/api/admin/ads");
    const list = (await response.json()) as AdminAdList;
    const ad = list.ads.find((a) => a.name === "Lantern oil");
    expect(ad?.views).toBeGreaterThanOrEqual(2);
    await context.close();
  });
});

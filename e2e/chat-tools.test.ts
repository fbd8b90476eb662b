import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ConversationList, GenerateRequest, Message, MessagePage } from "@hearth/contract";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botBubbles,
  conversationIdOf,
  createCharacter,
  messageBox,
  openChat,
  openChatMenu,
  password,
  recordGenerate,
  send,
  shot,
  shotBoth,
  signIn,
  signUp,
  storedMessages,
  userBubbles,
} from "./chat-tools-helpers.ts";
import {
  createDataDir,
  createSubscriber,
  type HearthServer,
  launchBrowser,
  newPage,
  repoRoot,
  startServer,
} from "./harness.ts";

/**
 * The chat tools (chat-and-characters §2 chat menu and message menu, §4 message modes, remove and
 * clone modes, model choice, §5 rules) against a real Hearth chatting with the bundled model.
 * The server offers two models from a HEARTH_MODELS_FILE (both the bundled model), one of them
 * needing 8k_context, so free accounts see it locked and I'm All In accounts may choose it.
 */

const premium = { email: "pia.premium@example.com", name: "Pia Premium" };
const bundled = join(repoRoot, "models/hearth-tiny.gguf");
const signInPremium = (context: BrowserContext) => signIn(context, premium.email);
const chatMenu = openChatMenu;

describe("chat tools", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(bundled)) throw new Error("models/hearth-tiny.gguf is missing");
    const dataDir = createDataDir();
    const modelsFile = join(dataDir, "models.json");
    writeFileSync(
      modelsFile,
      JSON.stringify({
        default: "keeper-8k",
        models: [
          {
            id: "keeper-8k",
            name: "Keeper 8K",
            context_size: 512,
            backend: { type: "embedded", path: bundled },
          },
          {
            id: "keeper-16k",
            name: "Keeper 16K",
            tokens: 16384,
            permission: "8k_context",
            tags: ["long memory"],
            context_size: 512,
            backend: { type: "embedded", path: bundled },
          },
        ],
      }),
    );
    // Accounts made before the server starts: the embedded database allows one process at a time.
    createSubscriber(dataDir, { ...premium, password });
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
        env: { HEARTH_MODELS_FILE: modelsFile, LLM_THREADS: "1", HEARTH_REVIEW_PUBLIC_BOTS: "false" },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("edits a message: Save only for a real change, Esc cancels, a failed save restores the text", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Edda Editor");
    const character = await createCharacter(context, "Keeper Edwin");
    await openChat(page, character);
    await send(page, "Hello, is the lamp lit?");
    const conversationId = conversationIdOf(page);

    // The menu lists only what works here: no generation settings for a free account.
    await chatMenu(page);
    for (const entry of [
      "Remove Messages",
      "Change Persona",
      "Clone Conversation",
      "Change Title",
      "Choose Model",
    ]) {
      await page.getByRole("menuitem", { name: new RegExp(`^${entry}`) }).waitFor();
    }
    expect(await page.getByRole("menuitem", { name: "Generation Settings" }).count()).toBe(0);
    expect(await page.getByRole("menuitem", { name: /Favorite|Block Creator|Memories/ }).count()).toBe(0);
    // Set Voice is listed for every member: without TTS it brings up the upgrade modal (§4 Voice button).
    await page.getByRole("menuitem", { name: "Set Voice" }).waitFor();
    await shot(page, "chat-menu-1280");
    await page.keyboard.press("Escape");

    // Edit the user's message from its menu.
    const userRow = page.locator('[data-role="user"]').last();
    await userRow.hover();
    await userRow.getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const editor = page.getByRole("textbox", { name: "Edit message" });
    await editor.waitFor();
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    const save = page.getByRole("button", { name: "Save", exact: true });
    expect(await save.count()).toBe(0);
    await editor.fill("   ");
    expect(await save.count()).toBe(0);
    await editor.fill("  Hello, is the lamp lit?  ");
    expect(await save.count()).toBe(0);
    await editor.fill("Hello, is the great lamp lit tonight?");
    await save.waitFor();
    await shot(page, "message-edit-1280");
    // Esc cancels: the old text stays.
    await editor.press("Escape");
    await editor.waitFor({ state: "detached" });
    expect(await userBubbles(page).last().textContent()).toBe("Hello, is the lamp lit?");

    // A refused save puts the old text back and says so.
    await page.route("**/api/messages/*", (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({
            status: 409,
            contentType: "application/json",
            body: JSON.stringify({
              code: "conflict",
              message: "Wait for the reply being written to finish.",
            }),
          })
        : route.continue(),
    );
    await userRow.hover();
    await userRow.getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await editor.fill("This edit will fail");
    await save.click();
    await page.getByText("Your edit wasn't saved. Wait for the reply being written to finish.").waitFor();
    await expect.poll(() => userBubbles(page).last().textContent()).toBe("Hello, is the lamp lit?");
    await page.unroute("**/api/messages/*");

    // A real save: shown at once, stored, and still there after a reload.
    await userRow.hover();
    await userRow.getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await editor.fill("Hello, is the great lamp lit tonight?");
    await save.click();
    await editor.waitFor({ state: "detached" });
    await expect
      .poll(() => userBubbles(page).last().textContent())
      .toBe("Hello, is the great lamp lit tonight?");
    await expect
      .poll(
        async () => (await storedMessages(context, conversationId)).find((m) => m.role === "user")?.content,
      )
      .toBe("Hello, is the great lamp lit tonight?");
    await page.reload();
    await userBubbles(page).last().getByText("Hello, is the great lamp lit tonight?").waitFor();

    // A bot message too, on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    const greetingRow = page.locator('[data-role="bot"]').first();
    await greetingRow.getByRole("button", { name: "Message actions" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    await editor.fill("*trims the lamp* Another storm tonight. Sit by the fire.");
    await shot(page, "message-edit-390");
    await save.click();
    await editor.waitFor({ state: "detached" });
    await expect
      .poll(async () => (await storedMessages(context, conversationId))[0]?.content)
      .toBe("*trims the lamp* Another storm tonight. Sit by the fire.");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("removes a chosen message and every later one", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Remy Remover");
    const character = await createCharacter(context, "Keeper Rhea");
    await openChat(page, character);
    await send(page, "First question about the sea");
    await send(page, "Second question about the stars");
    const conversationId = conversationIdOf(page);
    const before = await storedMessages(context, conversationId);
    expect(before.map((m) => m.role)).toEqual(["bot", "user", "bot", "user", "bot"]);

    // Cancel leaves the mode with nothing removed.
    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Remove Messages" }).click();
    const bar = page.getByRole("region", { name: "Remove Messages" });
    await bar.waitFor();
    const remove = bar.getByRole("button", { name: "Remove", exact: true });
    expect(await remove.isDisabled()).toBe(true);
    expect(await messageBox(page).count()).toBe(0);
    await bar.getByRole("button", { name: "Cancel" }).click();
    await bar.waitFor({ state: "detached" });
    await messageBox(page).waitFor();

    // Choose the second question: it and the reply after it are marked.
    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Remove Messages" }).click();
    const second = before[3] as Message;
    await page.locator(`[data-pick-message="${second.id}"]`).click();
    expect(await remove.isDisabled()).toBe(false);
    await bar.getByText("2 messages will be removed for good.").waitFor();
    expect(await page.locator('[data-picked="chosen"]').count()).toBe(1);
    expect(await page.locator('[data-picked="included"]').count()).toBe(1);
    await shotBoth(page, "remove-mode");
    await remove.click();
    await bar.waitFor({ state: "detached" });
    await expect.poll(() => userBubbles(page).count()).toBe(1);
    await expect
      .poll(async () => (await storedMessages(context, conversationId)).map((m) => m.id))
      .toEqual(before.slice(0, 3).map((m) => m.id));
    await page.reload();
    await userBubbles(page).first().waitFor();
    expect(await userBubbles(page).count()).toBe(1);
    expect(await botBubbles(page).count()).toBe(2);
    expect(await page.getByText("Second question about the stars").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("clones partially into a new chat with only the chosen messages, and renames it", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Clio Cloner");
    const character = await createCharacter(context, "Keeper Cato");
    await openChat(page, character);
    await send(page, "Tell me of the first wreck");
    await send(page, "And the second wreck?");
    const sourceId = conversationIdOf(page);
    const source = await storedMessages(context, sourceId);

    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Clone Conversation" }).click();
    const dialog = page.getByRole("dialog", { name: "Clone Conversation" });
    await dialog.waitFor();
    const clone = dialog.getByRole("button", { name: "Clone", exact: true });
    expect(await clone.isDisabled()).toBe(true);
    await dialog.getByRole("textbox", { name: /Title/ }).fill("    ");
    expect(await clone.isDisabled()).toBe(true);
    await dialog.getByText("Clone Partially").click();
    await dialog.getByRole("textbox", { name: /Title/ }).fill("The first wreck");
    // Partial needs the last message to include.
    expect(await clone.isDisabled()).toBe(true);
    await shot(page, "clone-modal-1280");
    await dialog.getByRole("button", { name: "Choose message" }).click();
    const bar = page.getByRole("region", { name: "Clone Partially" });
    await bar.waitFor();
    const use = bar.getByRole("button", { name: "Use this message" });
    expect(await use.isDisabled()).toBe(true);
    const lastIncluded = source[2] as Message;
    await page.locator(`[data-pick-message="${lastIncluded.id}"]`).click();
    await bar.getByText("The copy will start with these 3 messages.").waitFor();
    await shot(page, "clone-pick-1280");
    await use.click();
    await dialog.waitFor();
    // As rendered: without the markdown's marks, and with its spaces collapsed and trimmed (the
    // model's text may begin with one, "* Kdso smirks.*").
    const plain = (text: string) => text.replace(/[*_]/g, "").replace(/\s+/g, " ").trim();
    expect(plain((await dialog.locator("[data-clone-end]").textContent()) ?? "")).toContain(
      plain(lastIncluded.content).slice(0, 20),
    );

    // A refused clone says so and stays.
    await page.route("**/clone", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: "internal", message: "The database is resting." }),
      }),
    );
    await clone.click();
    await dialog.getByText("The conversation wasn't cloned. The database is resting.").waitFor();
    await page.unroute("**/clone");
    await shotBoth(page, "clone-error");

    await clone.click();
    await page.waitForURL(
      (url) => url.pathname.startsWith(`/chat/${character.id}/`) && !url.pathname.endsWith(sourceId),
    );
    const copyId = conversationIdOf(page);
    await page.locator("[data-conversation-title]").getByText("The first wreck").waitFor();
    await expect.poll(() => userBubbles(page).count()).toBe(1);
    expect(await botBubbles(page).count()).toBe(2);
    const copied = await storedMessages(context, copyId);
    expect(copied.map((m) => m.content)).toEqual(source.slice(0, 3).map((m) => m.content));
    // The original is untouched.
    expect((await storedMessages(context, sourceId)).length).toBe(5);

    // Change Title: Update is off while empty; the title shows in the header and on /chats.
    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Change Title" }).click();
    const titleDialog = page.getByRole("dialog", { name: "Update title" });
    const title = titleDialog.getByRole("textbox", { name: "Title" });
    expect(await title.inputValue()).toBe("The first wreck");
    await title.fill("");
    expect(await titleDialog.getByRole("button", { name: "Update" }).isDisabled()).toBe(true);
    await title.fill("x".repeat(60));
    expect((await title.inputValue()).length).toBe(50);
    await title.fill("Wrecks of the northern reef");
    await shot(page, "title-modal-1280");
    await titleDialog.getByRole("button", { name: "Update" }).click();
    await titleDialog.waitFor({ state: "detached" });
    await page.locator("[data-conversation-title]").getByText("Wrecks of the northern reef").waitFor();
    await shotBoth(page, "title-header");
    await page.goto("/chats");
    await page
      .getByRole("list", { name: "Conversations" })
      .getByText("Wrecks of the northern reef")
      .waitFor();
    const list = (await (await context.request.get("/api/conversations")).json()) as ConversationList;
    expect(list.conversations.find((c) => c.id === copyId)?.label).toBe("Wrecks of the northern reef");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("sends an I'm All In member's generation settings with each generation, until reset", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signInPremium(context);
    const character = await createCharacter(context, "Keeper Sol");
    await openChat(page, character);
    const bodies = recordGenerate(page);

    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Generation Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Generation Settings" });
    await dialog.waitFor();
    for (const [label, value] of [
      ["Max new tokens", "250"],
      ["Temperature", "0.5"],
      ["Top-p", "0.9"],
      ["Top-k", "20"],
    ] as const) {
      await dialog.getByRole("slider", { name: label }).fill(value);
    }
    await dialog.locator('[data-setting-value="temperature"]').getByText("0.50").waitFor();
    await dialog.locator('[data-setting-value="max_new_tokens"]').getByText("250").waitFor();
    // Keyboard: the arrow keys step by the slider's step.
    await dialog.getByRole("slider", { name: "Top-k" }).press("ArrowRight");
    await dialog.locator('[data-setting-value="top_k"]').getByText("21").waitFor();
    await shotBoth(page, "generation-settings");
    await dialog.getByRole("button", { name: "Done" }).click();

    await send(page, "What do the tides say?");
    expect(bodies.at(-1)?.settings).toEqual({ max_new_tokens: 250, temperature: 0.5, top_p: 0.9, top_k: 21 });

    // Kept on this device: still there after a reload, and Reset brings the defaults back.
    await page.reload();
    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Generation Settings" }).click();
    expect(await dialog.getByRole("slider", { name: "Temperature" }).inputValue()).toBe("0.5");
    await dialog.getByRole("button", { name: "Reset" }).click();
    expect(await dialog.getByRole("slider", { name: "Temperature" }).inputValue()).toBe("0.8");
    await dialog.getByRole("button", { name: "Done" }).click();
    await send(page, "And tomorrow?");
    expect(bodies.at(-1)?.settings).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("edits an image prompt and asks for a new image, showing the server's answer", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signInPremium(context);
    const character = await createCharacter(context, "Keeper Iris");
    // No image model is configured here, so no message has an image prompt yet: the page is shown
    // one (and the prompt edit is answered) by the test, the new image is asked of the real server.
    await page.route("**/api/conversations/*/messages?*", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as MessagePage;
      const last = body.messages.at(-1);
      if (last?.role === "bot") last.image_prompt = "a lighthouse in a storm, oil painting";
      await route.fulfill({ response, json: body });
    });
    await page.route("**/api/messages/*", async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const change = route.request().postDataJSON() as { image_prompt?: string };
      const messages = await storedMessages(context, conversationIdOf(page));
      const message = messages.at(-1) as Message;
      await route.fulfill({ json: { ...message, image_prompt: change.image_prompt ?? null } });
    });
    await openChat(page, character);
    // A new chat opens from the answer that created it; a reload reads its messages.
    await page.reload();
    const edit = page.getByRole("button", { name: "Edit image prompt" });
    await edit.click();
    const editor = page.getByRole("textbox", { name: "Edit image prompt" });
    expect(await editor.inputValue()).toBe("a lighthouse in a storm, oil painting");
    expect(await page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0);
    await editor.fill("a lighthouse at dawn, watercolour");
    await shot(page, "image-prompt-edit-1280");
    const generate = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/generate");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const body = (await generate).postDataJSON() as GenerateRequest;
    expect(body).toMatchObject({ type: "image", action: "regenerate" });
    // This server has no image backend: the answer says so plainly (issue 16, decision 020).
    await page
      .getByText("This server has no image model, so it cannot make pictures.", { exact: false })
      .waitFor();
    await editor.waitFor({ state: "detached" });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("chooses a model: locked ones show the plan modal, the choice is sent, a vanished one resets", async () => {
    // A free account: the 8K-context model is locked behind I'm All In.
    const free = await newPage(browser, server);
    await signUp(free.context, "Fern Free");
    const character = await createCharacter(free.context, "Keeper Moss");
    await openChat(free.page, character);
    await chatMenu(free.page);
    await free.page.getByRole("menuitem", { name: "Choose Model" }).click();
    const dialog = free.page.getByRole("dialog", { name: "Choose Model" });
    const locked = dialog.getByRole("button", { name: /Keeper 16K/ });
    await locked.waitFor();
    expect(await locked.getAttribute("aria-disabled")).toBe("true");
    expect(await dialog.getByRole("button", { name: /Keeper 8K/ }).getAttribute("aria-pressed")).toBe("true");
    // Each model says what it really reads: here the 512 tokens its entry is configured with.
    await dialog.getByRole("button", { name: /Keeper 8K.*Reads up to 512 tokens/ }).waitFor();
    await shot(free.page, "choose-model-1280");
    // aria-disabled, yet it answers a click with the plan it needs (Playwright waits for enabled).
    await locked.click({ force: true });
    const plan = free.page.getByRole("dialog", { name: "I'm All In Plan Required" });
    await plan.getByText("8K context memory (beta)").waitFor();
    await shot(free.page, "plan-required-1280");
    await free.page.setViewportSize({ width: 390, height: 844 });
    await shot(free.page, "plan-required-390");
    await plan.getByRole("button", { name: "Got it" }).click();
    await plan.waitFor({ state: "detached" });
    expect(await dialog.getByRole("button", { name: /Keeper 8K/ }).getAttribute("aria-pressed")).toBe("true");
    await shot(free.page, "choose-model-390");
    expect(free.pageErrors).toEqual([]);
    await free.context.close();

    // An I'm All In account may choose it; the choice goes with every generation.
    const { context, page, pageErrors } = await newPage(browser, server);
    await signInPremium(context);
    await openChat(page, character);
    const bodies = recordGenerate(page);
    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Choose Model" }).click();
    const chooser = page.getByRole("dialog", { name: "Choose Model" });
    await chooser.getByRole("button", { name: /Keeper 16K/ }).click();
    await chooser.waitFor({ state: "detached" });
    await send(page, "Which lamp burns longest?");
    expect(bodies.at(-1)?.model_id).toBe("keeper-16k");
    await chatMenu(page);
    await page.getByRole("menuitem", { name: "Choose Model" }).click();
    await expect
      .poll(() => chooser.getByRole("button", { name: /Keeper 16K/ }).getAttribute("aria-pressed"))
      .toBe("true");
    await page.keyboard.press("Escape");

    // A stored model the server no longer offers quietly gives way to the default.
    const key = await page.evaluate(() =>
      Object.keys(localStorage).find((k) => k.startsWith("hearth.chat.model.")),
    );
    expect(key).toBeTruthy();
    await page.evaluate((k) => localStorage.setItem(k as string, JSON.stringify("retired-model")), key);
    await page.reload();
    await messageBox(page).waitFor();
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k as string), key)).toBeNull();
    await send(page, "Still there?");
    expect(bodies.at(-1)?.model_id).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

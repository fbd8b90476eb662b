import type { Conversation } from "@hearth/contract";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkA11y } from "./a11y.ts";
import {
  botBubbles,
  conversationIdOf,
  createCharacter,
  messageBox,
  openChat,
  openChatMenu,
  password,
  signIn,
  signUp,
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

/**
 * Voice (issue 16 items 1-2) in Chromium at 1280 and 390 px, with the embedded eSpeak NG voice:
 * Set Voice's modal (gender filter, a sample, save), Listen on a reply (stop, then the end of
 * playback), Rate voice quality, the upgrade modal for a free member, and the mic: hidden where
 * the browser has no speech recognition, and with a stubbed one, 'Say something...' while
 * recording and the final result in the box.
 */

const subscriber = { email: "vera.voice@example.com", name: "Vera Voice" };

const shot = screenshots("voice", { settleMs: 250 });

/** A SpeechRecognition stand-in: start() says it records; stop() hands a final result, then ends. */
const STUB_RECOGNITION = () => {
  class StubRecognition {
    lang = "";
    interimResults = true;
    continuous = true;
    maxAlternatives = 1;
    onresult: ((event: unknown) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    start() {
      (window as unknown as { __recognition: StubRecognition }).__recognition = this;
    }
    stop() {
      const final = Object.assign([{ transcript: "tell me about the storm" }], { isFinal: true });
      const interim = Object.assign([{ transcript: "ignored words" }], { isFinal: false });
      this.onresult?.({ resultIndex: 0, results: [interim, final] });
      this.onend?.();
    }
  }
  (window as unknown as { SpeechRecognition: unknown }).SpeechRecognition = StubRecognition;
};

describe("voice", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    const dataDir = createDataDir();
    createSubscriber(dataDir, { ...subscriber, password }, "basic");
    [server, browser] = await Promise.all([
      startServer({ dataDir, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false", HEARTH_TTS_LANGUAGES: "en-us" } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1280, 390]) {
    it(`a True Supporter sets a voice, listens, stops and rates the voice (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      // A browser without speech recognition (Firefox; this Chromium has the constructor).
      await page.addInitScript(() => {
        const w = window as unknown as Record<string, unknown>;
        delete w.SpeechRecognition;
        delete w.webkitSpeechRecognition;
      });
      await signIn(context, subscriber.email);
      const character = await createCharacter(context, `Keeper Echo ${width}`, {
        greeting: "*trims the lamp* Another storm tonight. Come in, come in. Sit by the fire.",
      });
      await openChat(page, character);
      const conversationId = conversationIdOf(page);

      // The mic hides itself where the browser has no speech recognition.
      expect(await page.getByRole("button", { name: "Speak a message" }).count()).toBe(0);

      await openChatMenu(page);
      await page.getByRole("menuitem", { name: "Set Voice" }).click();
      const dialog = page.getByRole("dialog", { name: "Choose a voice" });
      await dialog.waitFor();
      const voices = dialog.getByRole("list", { name: "Voices" });
      await voices.getByRole("radio").first().waitFor();
      expect(await voices.getByRole("radio", { name: /^Adam/ }).count()).toBe(1);
      await dialog
        .locator("fieldset label")
        .filter({ hasText: /^Female$/ })
        .click();
      await expect.poll(() => voices.getByRole("radio", { name: /^Adam/ }).count()).toBe(0);
      const annie = voices.getByRole("radio", { name: /Annie/ });
      await annie.check();
      await dialog.getByRole("button", { name: /Play sample of Annie/ }).click();
      await checkA11y(page);
      await shot(page, `voice-dialog-${width}`);
      await dialog.getByRole("button", { name: "Save voice" }).click();
      await dialog.waitFor({ state: "detached" });
      const conversation = (await (
        await context.request.get(`/api/conversations/${conversationId}`)
      ).json()) as Conversation;
      expect(conversation.voiceId).toBe("en-us+Annie");
      await openChatMenu(page);
      await page.getByRole("menuitem", { name: "Voice Change" }).waitFor();
      await page.keyboard.press("Escape");

      // Listen: the reply is spoken; Stop ends it at once.
      const row = page.locator('[data-role="bot"]').first();
      await row.hover();
      const listen = row.getByRole("button", { name: "Listen" });
      await listen.click();
      await row.locator('[data-listen-state="playing"]').waitFor();
      await shot(page, `listening-${width}`);
      await row.getByRole("button", { name: "Stop" }).click();
      await row.getByRole("button", { name: "Listen" }).waitFor();
      // Again, from the cache, played to its end.
      await row.getByRole("button", { name: "Listen" }).click();
      await row.locator('[data-listen-state="playing"]').waitFor();
      await row.locator('[data-listen-state="idle"]').waitFor({ timeout: 30_000 });

      // Rate voice quality from the message menu.
      await row.hover();
      await row.getByRole("button", { name: "Message actions" }).click();
      await page.getByRole("menuitem", { name: "Rate voice quality" }).click();
      const rate = page.getByRole("dialog", { name: "Rate voice quality" });
      await rate.waitFor();
      await checkA11y(page);
      await rate.getByRole("button", { name: "Great" }).click();
      await rate.getByText("Thank you!").waitFor();
      await shot(page, `rated-${width}`);
      await rate.getByRole("button", { name: "Close" }).first().click();
      expect(await botBubbles(page).count()).toBeGreaterThan(0);
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`a guest is asked to sign up and has no voice menu (${width} px)`, async () => {
      const owner = await newPage(browser, server, { width });
      await signUp(owner.context, `Owner ${width}`);
      const character = await createCharacter(owner.context, `Keeper Guest ${width}`);
      await owner.context.close();
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await page.goto("/sign-in");
      await page.getByRole("button", { name: "Continue as guest" }).click();
      await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
      await openChat(page, character);
      const row = page.locator('[data-role="bot"]').first();
      await row.hover();
      await row.getByRole("button", { name: "Listen" }).click();
      const prompt = page.getByRole("dialog", { name: "Sign up to hear replies" });
      await prompt.waitFor();
      expect(await prompt.getByRole("link", { name: "Sign Up Free" }).getAttribute("href")).toContain(
        "/sign-up",
      );
      await checkA11y(page);
      await shot(page, `guest-${width}`);
      await prompt.getByRole("button", { name: "Not now" }).click();
      await openChatMenu(page);
      expect(await page.getByRole("menuitem", { name: "Set Voice" }).count()).toBe(0);
      await page.keyboard.press("Escape");
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it(`a free member is offered the upgrade; the mic records with the browser's recognition (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await page.addInitScript(STUB_RECOGNITION);
      await signUp(context, `Fred ${width}`);
      const character = await createCharacter(context, `Keeper Quiet ${width}`);
      await openChat(page, character);

      const row = page.locator('[data-role="bot"]').first();
      await row.hover();
      await row.getByRole("button", { name: "Listen" }).click();
      const upgrade = page.getByRole("dialog", { name: "True Supporter Plan Required" });
      await upgrade.waitFor();
      await checkA11y(page);
      await shot(page, `upgrade-${width}`);
      await upgrade.getByRole("button", { name: "Got it" }).click();
      await upgrade.waitFor({ state: "detached" });
      await openChatMenu(page);
      await page.getByRole("menuitem", { name: "Set Voice" }).click();
      await page.getByRole("dialog", { name: "True Supporter Plan Required" }).waitFor();
      await page.keyboard.press("Escape");

      // The mic: 'Say something...' while recording, the final result (only) in the box.
      const mic = page.getByRole("button", { name: "Speak a message" });
      await mic.click();
      await page.getByRole("button", { name: "Stop recording" }).waitFor();
      expect(await messageBox(page).getAttribute("placeholder")).toBe("Say something...");
      expect(
        await page.evaluate(
          () => (window as unknown as { __recognition: { lang: string } }).__recognition.lang,
        ),
      ).toBe("en-US");
      await checkA11y(page);
      await shot(page, `recording-${width}`);
      await page.getByRole("button", { name: "Stop recording" }).click();
      await expect.poll(() => messageBox(page).inputValue()).toBe("tell me about the storm");
      await expect.poll(() => messageBox(page).getAttribute("placeholder")).toBe("Message...");
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

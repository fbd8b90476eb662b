import type { Character } from "@hearth/contract";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatedServer } from "../apps/server/test/gated-openai-server.ts";
import {
  botBubbles,
  createCharacter,
  messageBox,
  openChat,
  shot,
  signUp,
  waitIdle,
} from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * The line for the model (issue 15 item 2) as a member sees it: with one slot on the model server
 * and another member's reply holding it, a sent message shows "Your reply's place in line" until
 * the slot frees, then the reply streams in and the banner goes. At 1280 and 390 px.
 */
const line = (page: Page) => page.locator("[data-reply-line]");

describe("the line for the model", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: Awaited<ReturnType<typeof gatedServer>>;
  let character: Character;

  beforeAll(async () => {
    model = await gatedServer();
    [server, browser] = await Promise.all([
      startServer({
        env: {
          LLM_BASE_URL: model.url,
          LLM_MODEL: "gated",
          LLM_SEQUENCES: "1",
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
        },
      }),
      launchBrowser(),
    ]);
    const { context } = await newPage(browser, server);
    await signUp(context, "Creator Line");
    character = await createCharacter(context, "Keeper Line");
    await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    model?.close();
  });

  for (const width of [1280, 390]) {
    it(`a waiting reply shows its place until the slot frees, then streams (${width} px)`, async () => {
      const holder = await newPage(browser, server, { width });
      await signUp(holder.context, "Holder");
      await openChat(holder.page, character);
      // Counted before sending: the request may reach the model server before the press returns.
      const before = model.answering.length;
      await messageBox(holder.page).fill("I hold the only slot");
      await messageBox(holder.page).press("Enter");
      await model.received(before + 1);

      const { context, page, pageErrors } = await newPage(browser, server, { width, colorScheme: "light" });
      await signUp(context, "Waiter");
      await openChat(page, character);
      await messageBox(page).fill("Is it my turn yet?");
      await messageBox(page).press("Enter");
      await line(page).waitFor();
      expect(await line(page).innerText()).toMatch(/Your reply's place in line:\s*1/);
      await shot(page, `reply-line-${width}`);

      // The holder's reply ends; the waiting one takes the slot, streams and the banner goes.
      const waiting = model.answering.length;
      model.release();
      await model.received(waiting + 1);
      await line(page).waitFor({ state: "detached" });
      model.release();
      await waitIdle(page);
      expect(await botBubbles(page).last().innerText()).toContain("One moment, done.");
      await waitIdle(holder.page);
      expect(pageErrors).toEqual([]);
      await holder.context.close();
      await context.close();
    });
  }
});

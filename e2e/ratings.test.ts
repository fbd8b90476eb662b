import type { Character, CharacterRatingSummary, TagSuggestionList } from "@hearth/contract";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCharacter,
  openChat,
  password,
  shot,
  signIn,
  signUp,
  storedMessages,
} from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer, uniqueUsername } from "./harness.ts";
import { type StandInModel, startStandInModel } from "./stand-in-model.ts";

/**
 * Ratings in Chromium (chat-and-characters §4 "Message rating", "Chatbot rating dialog", "Tag
 * suggestion"): a member rates the greeting of a public bot, rates the bot from the chat header,
 * suggests a tag on its profile; the creator accepts it in the editor. No reply is generated, so
 * a stand-in model is enough.
 */
describe("ratings", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;
  let bot: Character;
  const creatorEmail = `ratings-creator-${Date.now()}@example.com`;

  beforeAll(async () => {
    model = await startStandInModel();
    [server, browser] = await Promise.all([
      startServer({
        env: { LLM_BASE_URL: model.url, LLM_MODEL: "stand-in", HEARTH_REVIEW_PUBLIC_BOTS: "false" },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await model?.close();
  });

  it("the creator sees no rate button on their own bot", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    const signedUp = await context.request.post("/api/auth/sign-up/email", {
      data: { email: creatorEmail, password, name: "Creator Cora", username: uniqueUsername("cora") },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    bot = await createCharacter(context, "Keeper Ada", { tags: ["lighthouse", "storms"] });
    await openChat(page, bot);
    expect(await page.getByRole("button", { name: /^Rate Chatbot/ }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("rates a message: level, reason, expected response, thank-you, then filled and off", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width: 390 });
    await signUp(context, "Member Milo");
    await openChat(page, bot);
    const rate = page.getByRole("button", { name: "Rate", exact: true });
    await rate.click();
    const dialog = page.getByRole("dialog", { name: "Rate this response" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Bad" }).click();
    await dialog.getByRole("button", { name: "Repetitive" }).click();
    await dialog
      .getByRole("textbox", { name: "What response did you expect?" })
      .fill("A question about the storm");
    await shot(page, "message-rating-390");
    await dialog.getByRole("button", { name: "Submit rating" }).click();
    await dialog.getByText("Thank you for your feedback!").waitFor();
    // The thank-you closes itself (7 s); focus goes back to the control, now filled and off.
    await dialog.waitFor({ state: "detached", timeout: 15_000 });
    const rated = page.getByRole("button", { name: "Rated Bad" });
    await rated.waitFor();
    expect(await rated.getAttribute("aria-disabled")).toBe("true");
    // Off for good: a click (dispatched, since Playwright won't click an aria-disabled button) opens nothing.
    await rated.dispatchEvent("click");
    expect(await page.getByRole("dialog").count()).toBe(0);

    const conversationId = new URL(page.url()).pathname.split("/")[3] as string;
    const [greeting] = await storedMessages(context, conversationId);
    expect(greeting?.rating).toBe(2);
    // Reloaded, the rating comes from the server.
    await page.reload();
    await page.getByRole("button", { name: "Rated Bad" }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("rates the chatbot from the chat header: Done only for a new choice, 'Rating Submitted'", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Member Lin");
    await openChat(page, bot);
    await page.getByRole("button", { name: "Rate Chatbot" }).click();
    const dialog = page.getByRole("dialog", { name: "Rate Chatbot" });
    await dialog.waitFor();
    const done = dialog.getByRole("button", { name: "Done" });
    expect(await done.isDisabled()).toBe(true);
    await dialog.getByText("Love", { exact: true }).click();
    expect(await done.isDisabled()).toBe(false);
    await shot(page, "chatbot-rating-1280");
    await done.click();
    await dialog.getByText("Rating Submitted").waitFor();
    // Unchanged now: Done is off again.
    expect(await done.isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await page.getByRole("button", { name: "Rate Chatbot (you chose Love)" }).waitFor();

    const summary = (await (
      await context.request.get(`/api/characters/${bot.id}/rating`)
    ).json()) as CharacterRatingSummary;
    expect(summary).toMatchObject({ rating: 5, ratings: 1, rating_score: 1 });
    // The profile's like percent comes from the ratings.
    await page.goto(`/chatbot/${bot.id}`);
    await page.getByText("100%").waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("guests get no rate button", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await openChat(page, bot);
    await page.getByRole("button", { name: "Rate", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: /^Rate Chatbot/ }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("suggests a tag on the profile; the creator accepts it in the editor", async () => {
    const member = await newPage(browser, server, { width: 390 });
    await signUp(member.context, "Member Suki");
    const page = member.page;
    await page.goto(`/chatbot/${bot.id}`);
    await page.getByRole("button", { name: "Suggest tags" }).click();
    const dialog = page.getByRole("dialog", { name: "Suggest tags" });
    await dialog.getByRole("button", { name: "Send suggestions" }).click();
    await dialog.getByText("Please select something !").waitFor();
    await dialog.getByRole("button", { name: "Remove storms" }).click();
    await dialog.getByRole("combobox", { name: "Add tags" }).fill("Cozy");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await dialog.getByText("2 of 12 tags after your changes").waitFor();
    await shot(page, "suggest-tags-390");
    await dialog.getByRole("button", { name: "Send suggestions" }).click();
    await page.getByText("Suggestions sent successfully !").waitFor();
    // Kept in this browser per bot: the button offers to change it.
    await page.getByRole("button", { name: "Change tag suggestion" }).waitFor();
    expect(member.pageErrors).toEqual([]);
    await member.context.close();

    const { context, page: editor, pageErrors } = await newPage(browser, server);
    await signIn(context, creatorEmail);
    const list = (await (
      await context.request.get(`/api/characters/${bot.id}/tag-suggestions`)
    ).json()) as TagSuggestionList;
    expect(list.suggestions.map((x) => [x.tags_to_add, x.tags_to_remove])).toEqual([[["cozy"], ["storms"]]]);
    await editor.goto(`/chatbot/edit/${bot.id}`);
    const panel = editor.getByRole("region", { name: /Tag suggestions/ });
    await panel.getByText("+ cozy").waitFor();
    await shot(editor, "tag-suggestions-editor-1280");
    await panel.getByRole("button", { name: /^Accept the suggestion/ }).click();
    await panel.getByText("Suggestion accepted: the tags are updated.").waitFor();
    const saved = (await (await context.request.get(`/api/characters/${bot.id}`)).json()) as Character;
    expect(saved.tags).toEqual(["lighthouse", "cozy"]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

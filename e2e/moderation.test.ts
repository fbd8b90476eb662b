import type { AdminReviewPage, CharacterPage } from "@hearth/contract";
import type { Browser, BrowserContext, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharacter, openChat, password, shot, signUp } from "./chat-tools-helpers.ts";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  startServer,
} from "./harness.ts";
import { type StandInModel, startStandInModel } from "./stand-in-model.ts";

/**
 * Moderation in Chromium (issue 11 items 1-2): a member reports a bot at /report/{id}, an
 * administrator finds the report in /admin/reviews and makes the bot private from there (it is
 * no longer listed and its creator sees PRIVATE); and the message report flow of the chat
 * (Next, Skip/Done, Close). At 390 and 1280 px.
 */

const admin = { email: "moderator@example.com", password, name: "Mod Erator" };

/** The copy on screen: the review table and its phone cards hold the same text, one of them hidden. */
const shown = (locator: Locator) => locator.locator("visible=true").first();

async function signInAdmin(context: BrowserContext) {
  const response = await context.request.post("/api/auth/sign-in/email", {
    data: { email: admin.email, password: admin.password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

describe("moderation", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;

  beforeAll(async () => {
    model = await startStandInModel();
    const dataDir = createDataDir();
    createAdmin(dataDir, admin);
    [server, browser] = await Promise.all([
      startServer({
        dataDir,
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

  for (const width of [1280, 390]) {
    it(`a member reports a bot, an administrator makes it private from the review table (${width} px)`, async () => {
      const creator = await newPage(browser, server, { width });
      await signUp(creator.context, `Creator ${width}`);
      const name = `Gale Warden ${width}`;
      const bot = await createCharacter(creator.context, name);
      const listed = async () =>
        (
          (await (
            await creator.context.request.get(`/api/characters?q=${encodeURIComponent(name)}`)
          ).json()) as CharacterPage
        ).characters.map((c) => c.name);
      expect(await listed()).toEqual([name]);

      // The member's report, with the form's rules first.
      const member = await newPage(browser, server, { width });
      await signUp(member.context, `Reporter ${width}`);
      const page = member.page;
      await page.goto(`/report/${bot.id}`);
      await page.getByRole("heading", { level: 1, name: "Report a chatbot" }).waitFor();
      await page.getByText(`Reporting ${name}`).waitFor();
      await page.getByText("Our moderators look at every report within 7 days.").waitFor();
      await page.getByRole("button", { name: "Submit report" }).click();
      await page.getByText("Fill all fields to submit.").waitFor();
      await page.getByText("Details are required").waitFor();
      await page.getByRole("combobox", { name: "What is wrong" }).selectOption("Hate or harassment");
      const details = `The greeting insults people who come in (${width}).`;
      await page.getByRole("textbox", { name: "Details" }).fill(details);
      await page.getByRole("combobox", { name: "What should we do" }).selectOption("Make it private");
      await shot(page, `report-form-${width}`);
      await page.getByRole("button", { name: "Submit report" }).click();
      await page.getByText("Thank you. Your report was sent to the moderators.").waitFor();
      const submitted = page.getByRole("button", { name: "Submitted" });
      expect(await submitted.isDisabled()).toBe(true);
      // The success message goes after 3 s; the form stays sent.
      await page
        .getByText("Thank you. Your report was sent to the moderators.")
        .waitFor({ state: "detached" });
      expect(await submitted.isDisabled()).toBe(true);
      expect(member.pageErrors).toEqual([]);

      // The administrator's review table.
      const mod = await newPage(browser, server, { width });
      await signInAdmin(mod.context);
      await mod.page.goto("/");
      if (width < 600)
        await mod.page
          .getByRole("button", { name: /menu|navigation/i })
          .first()
          .click();
      await mod.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reviews" }).click();
      await mod.page.getByRole("heading", { level: 1, name: "Reviews" }).waitFor();
      await shown(mod.page.getByText(details)).waitFor();
      await shot(mod.page, `admin-reviews-${width}`);
      await mod.page.getByRole("button", { name: `Actions for ${name}` }).click();
      await mod.page.getByRole("menuitem", { name: "Make private" }).click();
      await mod.page.getByText(`${name} is private now.`).waitFor();
      await shown(mod.page.getByText(details)).waitFor({ state: "detached" });

      // Closed, with what was done; the audit log has the change.
      await mod.page.getByRole("combobox", { name: "Status" }).selectOption("closed");
      await shown(mod.page.getByText(details)).waitFor();
      await shown(mod.page.getByText("Made private")).waitFor();
      await mod.page.getByRole("tab", { name: "Audit log" }).click();
      await mod.page.getByText("Changed a chatbot").first().waitFor();
      await shot(mod.page, `admin-audit-${width}`);
      expect(mod.pageErrors).toEqual([]);

      // Not listed any more; its creator sees PRIVATE on My Chatbots.
      expect(await listed()).toEqual([]);
      await creator.page.goto("/my-chatbots");
      const card = creator.page.getByRole("listitem").filter({ hasText: name });
      await card.getByText("PRIVATE", { exact: true }).waitFor();
      expect(creator.pageErrors).toEqual([]);

      // Members who are not administrators are sent away from the review table.
      await page.goto("/admin/reviews");
      await page.getByRole("heading", { level: 1, name: "Access denied" }).waitFor();

      await Promise.all([creator.context.close(), member.context.close(), mod.context.close()]);
    });
  }

  it("sends a reported bot back with reasons, the creator fixes it, and approval unlocks it; an admin edits from the table", async () => {
    const creator = await newPage(browser, server);
    await signUp(creator.context, "Fixing Creator");
    const name = "Tide Caller";
    const bot = await createCharacter(creator.context, name);
    const member = await newPage(browser, server);
    await signUp(member.context, "Second Reporter");
    const reported = await member.context.request.post("/api/reportCharacter", {
      data: {
        character_id: bot.id,
        userIssueType: "Impersonates a real person",
        userReportDetails: "It claims to be a famous singer.",
        userExpectedResolution: "Ask the creator to fix it",
      },
    });
    expect(reported.status(), await reported.text()).toBe(201);

    // The administrator asks for a fix, with a reason and a description.
    const mod = await newPage(browser, server);
    await signInAdmin(mod.context);
    await mod.page.goto("/admin/reviews");
    await shown(mod.page.getByText("It claims to be a famous singer.")).waitFor();
    await mod.page.getByRole("button", { name: `Actions for ${name}` }).click();
    await mod.page.getByRole("menuitem", { name: "Ask for a fix…" }).click();
    const dialog = mod.page.getByRole("dialog", { name: `Send ${name} back to its creator` });
    expect(await dialog.getByRole("button", { name: "Send back" }).isDisabled()).toBe(true);
    await dialog.getByRole("checkbox", { name: "Impersonates a real person" }).check();
    await dialog
      .getByRole("textbox", { name: "What the creator should change" })
      .fill("Make the singer fictional.");
    await shot(mod.page, "admin-reject-1280");
    await dialog.getByRole("button", { name: "Send back" }).click();
    await mod.page.getByText(`${name} was sent back to its creator.`).waitFor();

    // The creator reads why on My Chatbots and in the editor ('Reported': a member reported it).
    await creator.page.goto("/my-chatbots");
    const card = creator.page.getByRole("listitem").filter({ hasText: name });
    await card.getByText("ACTION", { exact: true }).waitFor();
    await card.getByText("Make the singer fictional.").waitFor();
    await card.getByRole("link", { name: "Fix it in the editor" }).click();
    await creator.page.getByRole("heading", { level: 1, name: `Edit ${name}` }).waitFor();
    await creator.page.getByText("Reported", { exact: true }).waitFor();
    await creator.page.getByText("Impersonates a real person").waitFor();
    await creator.page.getByLabel("Title").fill("A fictional siren of the harbour");
    await creator.page.getByRole("button", { name: "Save changes" }).click();
    await creator.page.getByText("Changes saved").waitFor();
    await creator.page.reload();
    await creator.page.getByText("This chatbot is in the review queue").waitFor();
    expect(await creator.page.getByRole("button", { name: "Save changes" }).isDisabled()).toBe(true);

    // Back in the table as an edited bot: the administrator opens the editor, then approves it.
    await mod.page.reload();
    await mod.page.getByRole("combobox", { name: "Kind" }).selectOption("edited_bot");
    await mod.page.getByRole("button", { name: `Actions for ${name}` }).click();
    await mod.page.getByRole("menuitem", { name: "Edit" }).click();
    await mod.page.getByRole("heading", { level: 1, name: `Edit ${name}` }).waitFor();
    await mod.page.getByText("You are editing someone else's chatbot").waitFor();
    await mod.page.goBack();
    await mod.page.getByRole("combobox", { name: "Kind" }).selectOption("edited_bot");
    await mod.page.getByRole("button", { name: `Actions for ${name}` }).click();
    await mod.page.getByRole("menuitem", { name: "Approve" }).click();
    await mod.page.getByText(`${name} approved.`).waitFor();

    await creator.page.reload();
    await creator.page.getByRole("heading", { level: 1, name: `Edit ${name}` }).waitFor();
    expect(await creator.page.getByText("This chatbot is in the review queue").count()).toBe(0);
    await creator.page.getByLabel("Title").fill("Editable again");
    expect(await creator.page.getByRole("button", { name: "Save changes" }).isDisabled()).toBe(false);
    for (const p of [creator, member, mod]) expect(p.pageErrors).toEqual([]);
    await Promise.all([creator.context.close(), member.context.close(), mod.context.close()]);
  });

  for (const width of [1280, 390]) {
    it(`reports a chat message through Next, Skip/Done and Close (${width} px)`, async () => {
      const creator = await newPage(browser, server, { width });
      await signUp(creator.context, `Flag creator ${width}`);
      const bot = await createCharacter(creator.context, `Harbour Pilot ${width}`);

      const { context, page, pageErrors } = await newPage(browser, server, { width });
      await signUp(context, `Flagger ${width}`);
      await openChat(page, bot);

      const openReport = async () => {
        await page.locator('[data-role="bot"]').first().hover();
        await page.getByRole("button", { name: "Message actions" }).first().click();
        await page.getByRole("menuitem", { name: "Report" }).click();
        await page.getByRole("dialog", { name: "Report message" }).waitFor();
      };
      await openReport();
      const dialog = page.getByRole("dialog", { name: "Report message" });
      expect(await dialog.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
      await dialog.getByRole("radio", { name: "Out of character" }).check();
      await dialog.getByRole("button", { name: "Next" }).click();
      await dialog.getByRole("button", { name: "Skip" }).waitFor();
      await dialog.getByRole("textbox", { name: "Comment" }).fill("It talks about spaceships.");
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.getByText("Thank you").waitFor();
      await shot(page, `flag-done-${width}`);
      await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
      await dialog.waitFor({ state: "detached" });

      // A second flag of this bot while the first is open fails, and says why.
      await openReport();
      await dialog.getByRole("radio", { name: "Harmful or dangerous" }).check();
      await dialog.getByRole("button", { name: "Next" }).click();
      await dialog.getByRole("button", { name: "Skip" }).click();
      await dialog.getByText("Your report wasn't sent").waitFor();
      await dialog
        .getByText("You have already reported a message of this chatbot.", { exact: false })
        .waitFor();
      await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
      await dialog.waitFor({ state: "detached" });
      expect(pageErrors).toEqual([]);

      // The moderators see the flag with the message's text.
      const mod = await newPage(browser, server, { width });
      await signInAdmin(mod.context);
      const reviews = (await (
        await mod.context.request.get("/api/admin/reviews?status=open&kind=message_flag&limit=100")
      ).json()) as AdminReviewPage;
      const flag = reviews.reviews.find((r) => r.character_id === bot.id);
      expect(flag).toMatchObject({ issue: "Out of character", details: "It talks about spaceships." });
      expect(flag?.message_excerpt).toContain("Another storm tonight");
      await Promise.all([creator.context.close(), context.close(), mod.context.close()]);
    });
  }
});

import type { Conversation, Persona, PersonaList } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botBubbles,
  createCharacter,
  messageBox,
  png,
  shot,
  shotBoth,
  signUp,
} from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";
import { type StandInModel, startStandInModel, systemText } from "./stand-in-model.ts";

/**
 * The Personas pages (chat-and-characters §2, §4 "Persona default", §5, §8) and Change Persona in
 * the chat. Hearth talks to a stand-in OpenAI-compatible model that records the prompts it is
 * sent, so the test can see who the prompt says the user is after switching persona.
 */

async function createPersona(context: BrowserContext, name: string, highlights = ""): Promise<Persona> {
  const response = await context.request.post("/api/personas", { data: { name, highlights } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Persona;
}

async function personas(context: BrowserContext): Promise<Persona[]> {
  return ((await (await context.request.get("/api/personas")).json()) as PersonaList).personas;
}

const card = (page: Page, name: string) => page.locator(`[data-persona-card="${name}"]`);
const cardNames = (page: Page) =>
  page
    .getByRole("list", { name: "Personas" })
    .locator("[data-persona-card]")
    .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-persona-card")));

describe("personas", () => {
  let server: HearthServer;
  let browser: Browser;
  let model: StandInModel;

  beforeAll(async () => {
    model = await startStandInModel();
    [server, browser] = await Promise.all([
      startServer({
        env: {
          LLM_BASE_URL: model.url,
          LLM_MODEL: "stand-in",
          HEARTH_REVIEW_PUBLIC_BOTS: "false",
          HEARTH_PERSONA_LIMITS: "free:3",
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

  it("offers visitors and guests a free account instead, with no Personas link", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width: 390 });
    await page.goto("/personas");
    await page.getByRole("heading", { name: "Personas come with a free account" }).waitFor();
    await page.getByRole("link", { name: "Sign Up Free" }).first().waitFor();

    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await page.goto("/personas/create");
    await page.getByRole("heading", { name: "Personas come with a free account" }).waitFor();
    await shot(page, "personas-guest-390");
    await page
      .getByRole("button", { name: /menu|navigation/i })
      .first()
      .click();
    expect(await page.getByRole("link", { name: "Personas" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("creates, finds, makes default, edits and deletes personas, with errors chosen by error_type", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Nell Navigator");
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Personas" }).click();
    await page.getByRole("heading", { level: 1, name: "My Personas" }).waitFor();
    await page.getByRole("heading", { name: "No personas yet" }).waitFor();
    await shot(page, "personas-empty-1280");

    // Create the first one on the Persona page, with a picture: it becomes the default.
    await page.getByRole("link", { name: "Create New" }).first().click();
    await page.waitForURL(/\/personas\/create$/);
    await page.getByRole("heading", { level: 1, name: "Persona" }).waitFor();
    await page.getByRole("textbox", { name: "Name" }).fill("Rowan Vale");
    await page.getByRole("textbox", { name: /Highlights/ }).fill("A cartographer with ink-stained fingers.");
    await page.getByText("40 / 1,000").waitFor();
    await page.getByLabel("Upload image").setInputFiles({
      name: "rowan.png",
      mimeType: "image/png",
      buffer: png(64, 64, [60, 120, 200]),
    });
    await expect
      .poll(() => page.getByRole("img", { name: "Avatar of Rowan Vale" }).first().getAttribute("src"))
      .toMatch(/^blob:/);
    await shotBoth(page, "persona-create");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/personas$/);
    await card(page, "Rowan Vale").getByText("Default").waitFor();
    const [rowan] = await personas(context);
    expect(rowan?.is_default).toBe(true);
    expect(rowan?.avatar_url).toBeTruthy();
    await expect
      .poll(() =>
        card(page, "Rowan Vale")
          .getByRole("img", { name: "Avatar of Rowan Vale" })
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);

    // Search: a case-insensitive prefix of the name.
    await createPersona(context, "Sable Quill", "A quiet archivist.");
    await createPersona(context, "Rook Hart");
    await page.reload();
    await expect.poll(() => cardNames(page)).toEqual(["Rowan Vale", "Rook Hart", "Sable Quill"]);
    const search = page.getByRole("searchbox", { name: "Search personas by name" });
    await search.fill("ro");
    await expect.poll(() => cardNames(page)).toEqual(["Rowan Vale", "Rook Hart"]);
    await search.fill("SAB");
    await expect.poll(() => cardNames(page)).toEqual(["Sable Quill"]);
    await search.fill("quill");
    await page.getByRole("heading", { name: "No matches" }).waitFor();
    await search.fill("");
    await expect.poll(() => cardNames(page)).toHaveLength(3);
    await shotBoth(page, "personas-list");
    expect(
      await card(page, "Rowan Vale").evaluate((el) => el.getBoundingClientRect().width),
    ).toBeLessThanOrEqual(180);

    // Make another one the default.
    await page.getByRole("button", { name: "Actions for Sable Quill" }).click();
    await page.getByRole("menuitem", { name: "Set as default" }).click();
    await card(page, "Sable Quill").getByText("Default").waitFor();
    await expect.poll(() => card(page, "Rowan Vale").getByText("Default").count()).toBe(0);
    expect((await personas(context)).find((p) => p.is_default)?.name).toBe("Sable Quill");

    // The default can't be deleted: the spec's message.
    await page.getByRole("button", { name: "Actions for Sable Quill" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Persona" });
    await dialog.getByRole("button", { name: "Delete Persona" }).click();
    await dialog
      .getByText(
        "You cannot delete the default persona, please set another persona as the default or create a new one first.",
      )
      .waitFor();
    await shot(page, "persona-delete-default-1280");
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "detached" });

    // Another one can.
    await page.getByRole("button", { name: "Actions for Rook Hart" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await shotBoth(page, "persona-delete");
    await dialog.getByRole("button", { name: "Delete Persona" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => cardNames(page)).toEqual(["Sable Quill", "Rowan Vale"]);

    // Edit: a new name, and the server's words for a file that isn't a picture.
    await card(page, "Rowan Vale").getByRole("link", { name: "Rowan Vale" }).click();
    await page.waitForURL(/\/personas\/edit\//);
    await page.getByRole("heading", { level: 1, name: "Persona" }).waitFor();
    const name = page.getByRole("textbox", { name: "Name" });
    expect(await name.inputValue()).toBe("Rowan Vale");
    await page.getByLabel("Change image").setInputFiles({
      name: "notes.png",
      mimeType: "image/png",
      buffer: Buffer.from("not a picture at all"),
    });
    await page.getByRole("alert").first().waitFor();
    await shot(page, "persona-edit-avatar-error-1280");
    await name.fill("Sable Quill");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("You already have a persona with this name. Choose another name.").waitFor();
    await name.fill("Rowan of the Vale");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/personas$/);
    await card(page, "Rowan of the Vale").waitFor();

    // The plan's limit (3 here): the error_type picks the message.
    await createPersona(context, "Third Wheel");
    await page.getByRole("link", { name: "Create New" }).first().click();
    await page.getByRole("textbox", { name: "Name" }).fill("One Too Many");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("You've reached the persona limit for your plan.", { exact: false }).waitFor();
    await shot(page, "persona-limit-1280");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("switches persona in a chat, and the next prompt speaks for the new one", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Quentin Account");
    const rowan = await createPersona(context, "Rowan Vale", "A cartographer with ink-stained fingers.");
    const marlowe = await createPersona(context, "Marlowe Finch", "A retired sea captain with a parrot.");
    expect(rowan.is_default).toBe(true);
    const character = await createCharacter(context, "Keeper Ines", {
      greeting: "*looks up from the logbook* Evening, {{user}}.",
      persona: "An old lighthouse keeper who always greets {{user}} by name.",
    });

    await page.goto(`/chat/${character.id}`);
    await page.waitForURL(new RegExp(`/chat/${character.id}/[^/]+$`));
    const conversationId = new URL(page.url()).pathname.split("/")[3] as string;
    // The greeting's {{user}} is the default persona.
    await botBubbles(page).first().getByText("Evening, Rowan Vale.").waitFor();
    const sendAndWait = async (text: string) => {
      const before = model.requests.length;
      await messageBox(page).fill(text);
      await messageBox(page).press("Enter");
      await expect.poll(() => model.requests.length).toBe(before + 1);
      await page.getByRole("button", { name: "Send", exact: true }).waitFor();
      return model.requests.at(-1);
    };
    const first = await sendAndWait("Evening! Any ships tonight?");

    // The menu says who the user is; the picker changes it after a confirmation.
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page
      .getByRole("menuitem", { name: /Change Persona/ })
      .getByText("You're Rowan Vale")
      .waitFor();
    await page.getByRole("menuitem", { name: /Change Persona/ }).click();
    const picker = page.getByRole("dialog", { name: "Change Persona" });
    expect(await picker.getByRole("button", { name: /Rowan Vale/ }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    await shot(page, "change-persona-1280");
    await picker.getByRole("button", { name: /Marlowe Finch/ }).click();
    const confirm = page.getByRole("dialog", { name: "Change persona?" });
    await confirm
      .getByText("Keeper Ines will know you as Marlowe Finch from your next message.", { exact: false })
      .waitFor();
    await shotBoth(page, "change-persona-confirm");
    await confirm.getByRole("button", { name: "Change persona" }).click();
    await confirm.waitFor({ state: "detached" });
    const stored = (await (
      await context.request.get(`/api/conversations/${conversationId}`)
    ).json()) as Conversation;
    expect(stored.user_persona_id).toBe(marlowe.id);
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page
      .getByRole("menuitem", { name: /Change Persona/ })
      .getByText("You're Marlowe Finch")
      .waitFor();
    await page.keyboard.press("Escape");
    const second = await sendAndWait("Tell me about the old wreck.");

    // Manage personas, and back to the chat from there.
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("menuitem", { name: /Change Persona/ }).click();
    await shotBoth(page, "change-persona-current");
    await picker.getByRole("link", { name: "Manage personas" }).click();
    await page.waitForURL(/\/personas$/);
    const goBack = page.getByRole("link", { name: "Go Back to Keeper Ines" });
    await goBack.waitFor();
    await shotBoth(page, "personas-go-back");
    // The way back survives a visit to the Persona page.
    await card(page, "Marlowe Finch").getByRole("link", { name: "Marlowe Finch" }).click();
    await page.getByRole("link", { name: "Back to My Personas" }).click();
    await goBack.click();
    await page.waitForURL(new RegExp(`/chat/${character.id}/${conversationId}$`));
    expect(pageErrors).toEqual([]);
    await context.close();

    // The prompts: {{user}} and "You are talking with ..." name the conversation's persona.
    expect(systemText(first), "the first prompt speaks for the default persona").toContain("Rowan Vale");
    expect(systemText(second), "after switching, the prompt speaks for the new persona").toContain(
      "Marlowe Finch",
    );
    expect(systemText(second)).toContain("A retired sea captain with a parrot.");
    expect(systemText(second)).not.toContain("Rowan Vale");
  });
});

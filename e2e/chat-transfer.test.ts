import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  botBubbles,
  createCharacter,
  openChat,
  openChatMenu,
  signUp,
  userBubbles,
} from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * Chat import and export in Chromium (issue 19 items 2 and 3): a SillyTavern chat imported from
 * the chat menu's Import chat… and opened, its swipes shown as alternatives and its user as the
 * member; then Export chat… downloads SillyTavern JSONL and Hearth JSON, and opens the printable page.
 */

const shots = "/tmp/shots-chat-transfer";
mkdirSync(shots, { recursive: true });

async function shot(page: Page, name: string) {
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(shots, `${name}-1280.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(shots, `${name}-390.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const stChat = [
  {
    user_name: "Alex",
    character_name: "Keeper",
    create_date: "2024-05-01@20h00m00s",
    chat_metadata: { note_prompt: "x" },
  },
  {
    name: "Keeper",
    is_user: false,
    send_date: "May 1, 2024 8:00pm",
    mes: "Evening, {{user}}. The lamp is lit.",
    swipes: ["Who goes there?", "Evening, {{user}}. The lamp is lit."],
    swipe_id: 1,
  },
  { name: "Alex", is_user: true, send_date: "2024-05-01T20:01:00Z", mes: "Alex is cold. Any tea?" },
  { name: "System", is_user: false, is_system: true, send_date: "2024-05-01T20:01:30Z", mes: "note" },
  {
    name: "Keeper",
    is_user: false,
    send_date: "2024-05-01T20:02:00Z",
    mes: "Tea <b>is</b> brewing.",
    swipes: ["Tea <b>is</b> brewing.", "No tea, sorry."],
    swipe_id: 0,
    extra: { api: "kobold" },
  },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

describe("chat import and export", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("imports a SillyTavern chat from the chat menu and exports it again", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    await signUp(context, "Robin Reader");
    const character = await createCharacter(context, "Keeper");
    await openChat(page, character);

    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Import chat…" }).click();
    const dialog = page.getByRole("dialog", { name: "Import chat" });
    await dialog.waitFor();
    // A broken file: the server's words, in the dialog.
    await dialog.getByLabel("Chat file").setInputFiles({
      name: "broken.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from('{"user_name":"Alex"}\n{"mes": "cut off'),
    });
    await dialog
      .getByRole("alert")
      .filter({ hasText: "broken.jsonl couldn't be imported" })
      .getByText(/Line 2 is not valid JSON/)
      .waitFor();
    await dialog.getByLabel("Chat file").setInputFiles({
      name: "Keeper - 2024-05-01@20h00m00s.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(stChat),
    });
    const report = dialog.getByRole("region", { name: "Import report" });
    await report.getByText("Imported: 3 messages, 2 alternatives.").waitFor();
    await report.getByText("“Alex” is now Robin Reader (2 mentions changed).").waitFor();
    await report.getByText("Left out: 1 system message.").waitFor();
    await report.getByText(/chat_metadata\.note_prompt, extra\.api/).waitFor();
    await shot(page, "import-report");

    await dialog.getByRole("button", { name: "Open imported chat" }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/chat/${character.id}/`));
    await expect
      .poll(() => botBubbles(page).allTextContents())
      .toEqual([
        expect.stringContaining("Evening, Robin Reader. The lamp is lit."),
        expect.stringContaining("brewing."),
      ]);
    await expect
      .poll(() => userBubbles(page).allTextContents())
      .toEqual([expect.stringContaining("Robin Reader is cold. Any tea?")]);
    // The last reply's swipes are its alternatives, the first one shown.
    await page.locator("[data-alternative-counter]").filter({ hasText: "1/2" }).waitFor();
    await shot(page, "imported-chat");

    await openChatMenu(page);
    await page.getByRole("menuitem", { name: "Export chat…" }).click();
    const exporting = page.getByRole("dialog", { name: "Export chat" });
    await exporting.waitFor();
    await shot(page, "export-dialog");

    let downloading = page.waitForEvent("download");
    await exporting.getByRole("link", { name: "SillyTavern chat (.jsonl)" }).click();
    let download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^Keeper - \d{4}-\d\d-\d\d\.jsonl$/);
    const lines = readFileSync((await download.path()) as string, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ user_name: "Robin Reader", character_name: "Keeper" });
    expect(lines.slice(1).map((l) => [l.is_user, l.mes, l.swipe_id ?? null])).toEqual([
      [false, "Evening, Robin Reader. The lamp is lit.", 1],
      [true, "Robin Reader is cold. Any tea?", null],
      [false, "Tea <b>is</b> brewing.", 0],
    ]);

    downloading = page.waitForEvent("download");
    await exporting.getByRole("link", { name: "Hearth chat (.json)" }).click();
    download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.hearth\.json$/);
    const hearthFile = JSON.parse(readFileSync((await download.path()) as string, "utf8")) as {
      format: string;
      messages: { alternatives: string[]; alternative_index: number }[];
    };
    expect(hearthFile.format).toBe("hearth-chat");
    expect(hearthFile.messages[0]).toMatchObject({
      alternative_index: 1,
      alternatives: ["Who goes there?", "Evening, Robin Reader. The lamp is lit."],
    });

    // The printable page opens in a new tab, every message escaped.
    const opening = context.waitForEvent("page");
    await exporting.getByRole("link", { name: /Printable page/ }).click();
    const printable = await opening;
    await printable.waitForLoadState();
    await printable.getByRole("heading", { level: 1, name: "Chat with Keeper" }).waitFor();
    await printable.getByText("Tea <b>is</b> brewing.").waitFor();
    await printable.screenshot({ path: join(shots, "printable-1280.png"), fullPage: true });
    await printable.setViewportSize({ width: 390, height: 844 });
    await printable.screenshot({ path: join(shots, "printable-390.png"), fullPage: true });
    await printable.close();

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

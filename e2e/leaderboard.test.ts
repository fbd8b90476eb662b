import { randomBytes } from "node:crypto";
import type { Character, LeaderboardPage, Me } from "@hearth/contract";
import pg from "pg";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { password, shot } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * The Creators Leaderboard page (accounts-billing-admin §2.2, §4) on a generated pair of months.
 * Hearth runs on a fresh PostgreSQL database so the data outlives a restart: a first server makes
 * the creators and their public bots; their month counts and creation dates are then written
 * straight into the database (two months of activity cannot be waited for); a second server's
 * scheduled job computes both months at start, and the page shows them.
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const month = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
};
const current = month(0);
const previous = month(-1);

async function sql(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Podium places in screen order: left to right when side by side, top to bottom when stacked. */
async function podiumOrder(page: Page, axis: "x" | "y"): Promise<string[]> {
  const items = page.getByRole("list", { name: "Top three" }).locator("[data-podium-rank]");
  const placed: { rank: string; at: number }[] = [];
  for (const item of await items.all()) {
    const box = await item.boundingBox();
    if (!box) throw new Error("podium place not shown");
    placed.push({ rank: (await item.getAttribute("data-podium-rank")) ?? "", at: box[axis] });
  }
  return placed.sort((a, b) => a.at - b.at).map((p) => p.rank);
}

describe("creators leaderboard", () => {
  let server: HearthServer;
  let browser: Browser;
  let dbName: string;
  let dbUrl: string;
  const creators = ["Ada", "Bo", "Cyd", "Dee"];

  beforeAll(async () => {
    dbName = `hearth_e2e_lb_${randomBytes(5).toString("hex")}`;
    await sql(ADMIN_URL, `CREATE DATABASE ${dbName}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    const env = { DATABASE_URL: dbUrl, HEARTH_REVIEW_PUBLIC_BOTS: "false" };
    [server, browser] = await Promise.all([startServer({ env }), launchBrowser()]);

    // Creators with public bots, made through the API.
    const bots: Record<string, Character> = {};
    for (const name of creators) {
      const context: BrowserContext = await browser.newContext({ baseURL: server.url });
      const origin = { origin: server.url };
      const res = await context.request.post("/api/auth/sign-up/email", {
        headers: origin,
        data: {
          email: `lb-${name.toLowerCase()}-${Date.now()}@example.com`,
          password,
          name: `Creator ${name}`,
          username: `lb_${name.toLowerCase()}_${randomBytes(2).toString("hex")}`,
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      const me = (await (await context.request.get("/api/me")).json()) as Me;
      expect(me.username).toBeTruthy();
      const c = await context.request.post("/api/characters?switch=T1", {
        headers: origin,
        data: { name: `${name}'s bot`, visibility: "public", greeting: "Hello" },
      });
      expect(c.status(), await c.text()).toBe(201);
      bots[name] = (await c.json()) as Character;
      await context.close();
    }
    await server.stop();

    // Last month Ada led Bo and Cyd; this month Bo leads, Ada second, Cyd third, Dee (new) fourth.
    const counts: [string, string, number][] = [
      ["Ada", previous, 300],
      ["Bo", previous, 200],
      ["Cyd", previous, 100],
      ["Ada", current, 250],
      ["Bo", current, 400],
      ["Cyd", current, 120],
      ["Dee", current, 60],
    ];
    for (const [name, m, n] of counts) {
      await sql(
        dbUrl,
        "INSERT INTO character_monthly_messages (character_id, month, messages) VALUES ($1, $2, $3)",
        [bots[name]?.id, m, n],
      );
    }
    // Ada, Bo and Cyd's bots are older; Dee's was made this month (the New Bots category).
    for (const name of ["Ada", "Bo", "Cyd"]) {
      await sql(dbUrl, "UPDATE characters SET created_at = $2 WHERE id = $1", [
        bots[name]?.id,
        new Date(`${previous}-02T00:00:00Z`),
      ]);
    }
    await sql(dbUrl, "UPDATE characters SET created_at = $2 WHERE id = $1", [
      bots.Dee?.id,
      new Date(`${current}-01T12:00:00Z`),
    ]);

    // The second server's job computes both months at start.
    server = await startServer({ env });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dbName) await sql(ADMIN_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  // The job runs as the server starts; on two busy cores (the whole e2e suite at once) it has taken over a minute.
  it("the scheduled job computed both months when the server started", async () => {
    const probe = await browser.newContext({ baseURL: server.url });
    // Until the run has ended: a month's dates show once its first category is written, and a
    // page read in between stays cached until the run clears it.
    const computed = async (type: string) => {
      const page = (await (
        await probe.request.get(`/api/leaderboard?type=${type}`)
      ).json()) as LeaderboardPage;
      return { dates: page.dates, total: page.total };
    };
    await expect
      .poll(() => computed("all_bots"), { timeout: 110_000 })
      .toEqual({
        dates: [current, previous],
        total: 4,
      });
    await expect
      .poll(() => computed("new_bots"), { timeout: 10_000 })
      .toEqual({
        dates: [current, previous],
        total: 1,
      });
    await probe.close();
  });

  const rows = (page: Page) => page.locator("tbody tr");
  const rowText = (page: Page) =>
    rows(page).evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText));

  it("shows the month's podium and table at 1280: 2-1-3, leaves, movement, sorting, tabs and months", async () => {
    const { page, context, pageErrors } = await newPage(browser, server);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leaderboard" }).click();
    await page.getByRole("heading", { level: 1, name: "Creators Leaderboard" }).waitFor();

    // New Bots first: only Dee's bot is new this month.
    await page.getByRole("tab", { name: "New Bots", selected: true }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByRole("tab", { name: "All Bots" }).click();
    await page.waitForURL(/type=all_bots/);
    await expect.poll(() => rows(page).count()).toBe(4);
    const text = await rowText(page);
    expect(text[0]).toMatch(/^1\s+.*@lb_bo_.*\s+1\s+400\s+Up\s*1$/s);
    expect(text[1]).toMatch(/^2\s+.*@lb_ada_.*\s+1\s+250\s+Down\s*1$/s);
    expect(text[2]).toMatch(/^3\s+.*@lb_cyd_/s);
    expect(text[3]).toMatch(/^4\s+.*@lb_dee_.*New$/s);
    expect(await rows(page).nth(0).locator('[data-movement="up"]').count()).toBe(1);
    expect(await rows(page).nth(1).locator('[data-movement="down"]').count()).toBe(1);
    expect(await rows(page).nth(2).locator('[data-movement="neutral"]').count()).toBe(1);
    // Two leaves for the top 3, one for the top 10.
    expect(await rows(page).nth(0).getByRole("img", { name: "Top 3" }).locator("svg").count()).toBe(2);
    expect(await rows(page).nth(3).getByRole("img", { name: "Top 10" }).locator("svg").count()).toBe(1);
    // The winner stands in the middle of the podium on a wide screen.
    expect(await podiumOrder(page, "x")).toEqual(["2", "1", "3"]);
    await shot(page, "leaderboard-1280");

    // Sorting: Score ascending puts Dee first; Rank brings the order back.
    await page.getByRole("button", { name: "Score" }).click();
    expect(await page.getByRole("columnheader", { name: "Score" }).getAttribute("aria-sort")).toBe(
      "descending",
    );
    await page.getByRole("button", { name: "Score" }).click();
    expect((await rowText(page))[0]).toMatch(/@lb_dee_/);
    await page.getByRole("button", { name: "Rank", exact: true }).click();
    expect((await rowText(page))[0]).toMatch(/^1\s/);

    // How it Works opens with the prize rules.
    await page.getByRole("button", { name: "How it Works" }).click();
    await page.getByText("One user cannot win prizes in both categories in the same month.").waitFor();

    // Months: an older one goes into the address; the newest takes it out (§4).
    await page.getByRole("combobox", { name: "Month" }).selectOption(previous);
    await page.waitForURL(new RegExp(`date=${previous}`));
    await expect.poll(() => rows(page).count()).toBe(3);
    expect((await rowText(page))[0]).toMatch(/@lb_ada_/);
    await page.getByRole("combobox", { name: "Month" }).selectOption(current);
    await expect.poll(() => new URL(page.url()).searchParams.has("date")).toBe(false);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("at 390 the podium stacks 1-2-3, and an unavailable month falls back to the newest", async () => {
    const { page, context, pageErrors } = await newPage(browser, server, { width: 390 });
    await page.goto("/creators/leaderboard?type=all_bots&date=1999-01");
    await page.getByRole("heading", { level: 1, name: "Creators Leaderboard" }).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.has("date")).toBe(false);
    expect(new URL(page.url()).searchParams.get("type")).toBe("all_bots");
    await expect.poll(() => rows(page).count()).toBe(4);
    expect(await podiumOrder(page, "y")).toEqual(["1", "2", "3"]);
    await shot(page, "leaderboard-390");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

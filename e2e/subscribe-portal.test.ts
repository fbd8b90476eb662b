import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanList, Subscription } from "@hearth/contract";
import type { APIRequestContext, Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkA11y } from "./a11y.ts";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  screenshots,
  startServer,
  uniqueUsername,
} from "./harness.ts";

/**
 * The subscribe page and the subscriber portal (accounts-billing-admin §2.2, §4, §7; issue 13
 * items 3 and 6): a member sees the plans of /api/plans at both frequencies with Subscribe going
 * to the checkout; an administrator grants them True Supporter (the manual provider); in the
 * portal they see the plan and the next charge date, cancel, uncancel and open Change Plan. The
 * open pages (comparison, older layout, crypto) are visited signed out.
 */

const shot = screenshots("subscribe-portal");

const PASSWORD = "correct horse battery";
const ADMIN = { email: "billing-ops@example.com", password: PASSWORD, name: "Ops" };
const CRYPTO_BASIC = "https://pay.example/crypto/basic-monthly";

const money = (amount: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount);
/** As the portal shows a date: the same formatter, in the same time zone as the browser. */
const longDate = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(new Date(iso));

const pathOf = (page: Page) => new URL(page.url()).pathname;
const hrefOf = async (link: Locator) => link.getAttribute("href");

describe("subscribe page and subscriber portal", () => {
  let server: HearthServer;
  let browser: Browser;
  let admin: APIRequestContext;
  let plans: PlanList;

  beforeAll(async () => {
    const dataDir = createDataDir();
    createAdmin(dataDir, ADMIN);
    writeFileSync(join(dataDir, "site.json"), JSON.stringify({ crypto_links: { "basic-1m": CRYPTO_BASIC } }));
    [server, browser] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
    const adminContext = await browser.newContext({ baseURL: server.url });
    admin = adminContext.request;
    const signIn = await admin.post("/api/auth/sign-in/email", {
      data: { email: ADMIN.email, password: PASSWORD },
      headers: { origin: server.url },
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    plans = (await (await admin.get("/api/plans")).json()) as PlanList;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const plan = (id: string) => {
    const found = plans.plans.find((p) => p.plan_id === id);
    if (!found) throw new Error(`no plan ${id}`);
    return found;
  };

  /** A card shows the plan's price and per-day cost from /api/plans, and Subscribe goes to its checkout. */
  async function expectCard(page: Page, id: string) {
    const p = plan(id);
    const card = page.getByRole("region", { name: p.title });
    await card.getByText(money(p.price), { exact: true }).waitFor();
    await card.getByText(`${money(p.price_per_day)} a day`).waitFor();
    const subscribe = card.getByRole("link", { name: `Subscribe to ${p.title}` });
    expect(await hrefOf(subscribe)).toBe(`/checkout?plan_id=${id}`);
    return card;
  }

  for (const width of [1280, 390]) {
    it(`a member picks a frequency, then manages the plan an administrator granted (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      const username = uniqueUsername(`member${width}`);
      const signUp = await context.request.post("/api/auth/sign-up/email", {
        data: { email: `${username}@example.com`, password: PASSWORD, name: "Mira Member", username },
      });
      expect(signUp.status(), await signUp.text()).toBe(200);
      const { user } = (await signUp.json()) as { user: { id: string } };

      // Monthly by default, the three tiers with the server's prices.
      await page.goto("/subscribe");
      await page.getByRole("heading", { name: "Choose your plan" }).waitFor();
      for (const id of ["minimal-1m", "basic-1m", "premium-1m"]) await expectCard(page, id);
      expect(await page.getByRole("link", { name: "Pay Monthly" }).getAttribute("aria-current")).toBe("page");
      await shot(page, `subscribe-monthly-${width}`);

      // Pay Annually changes the route and the prices; the tagline shows.
      await page.getByRole("link", { name: "Pay Annually" }).click();
      await expect.poll(() => pathOf(page)).toBe("/subscribe/annually");
      const annual = await expectCard(page, "premium-1y");
      await annual.getByText("2 months free / 16% Off").waitFor();
      for (const id of ["minimal-1y", "basic-1y"]) await expectCard(page, id);
      await shot(page, `subscribe-annually-${width}`);
      await page.getByRole("link", { name: "Pay Monthly" }).click();
      await expect.poll(() => pathOf(page)).toBe("/subscribe/monthly");
      await expectCard(page, "basic-1m");

      // An upgrade prompt's ?plan= picks the tier out.
      await page.goto("/subscribe?plan=premium");
      await page
        .getByRole("region", { name: plan("premium-1m").title })
        .getByText("Your pick")
        .waitFor();

      // Without a subscription the portal says so and leads to the plans.
      await page.goto("/portal");
      await page.getByRole("heading", { name: "You have no subscription" }).waitFor();
      expect(await hrefOf(page.getByRole("link", { name: "See the plans" }))).toBe("/subscribe");

      // An administrator records a month of True Supporter (the manual provider).
      const granted = await admin.post("/api/admin/subscriptions", {
        data: { user_id: user.id, plan_id: "basic-1m", months: 1 },
        headers: { origin: server.url },
      });
      expect(granted.status(), await granted.text()).toBe(201);
      const sub = (await granted.json()) as Subscription;
      expect(sub.recur_at).not.toBeNull();

      await page.goto("/portal");
      const summary = page.getByRole("region", { name: "Your subscription" });
      await summary.getByText("True Supporter").waitFor();
      await summary.getByText("Next charge date").waitFor();
      await summary.getByText(longDate(sub.recur_at ?? "")).waitFor();
      await summary.getByText(`${money(15)} / month`).waitFor();
      await summary.getByText("Arranged with the site's administrators").waitFor();
      // No card on the manual provider: no Change Card, no Pay overdue.
      expect(await page.getByRole("button", { name: "Change Card" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Pay overdue" }).count()).toBe(0);
      await shot(page, `portal-active-${width}`);

      // Cancel, after the confirmation.
      await page.getByRole("button", { name: "Cancel subscription" }).click();
      const confirm = page.getByRole("dialog", { name: "Cancel your subscription?" });
      await confirm.getByText(`until ${longDate(sub.recur_at ?? "")}`).waitFor();
      await shot(page, `portal-cancel-confirm-${width}`);
      await confirm.getByRole("button", { name: "Cancel subscription" }).click();
      await confirm.waitFor({ state: "detached" });
      await page.getByText("Your subscription is cancelled.", { exact: true }).waitFor();
      await page.getByRole("status").filter({ hasText: "You keep your benefits until" }).first().waitFor();
      const uncancel = page.getByRole("button", { name: "Uncancel" });
      await uncancel.waitFor();
      expect(await page.getByRole("button", { name: "Cancel subscription" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Change Plan" }).isDisabled()).toBe(true);
      await summary.getByText("Benefits end on").waitFor();
      await shot(page, `portal-cancelled-${width}`);
      await checkA11y(page);

      // Uncancel: active again.
      await uncancel.click();
      await page.getByText("Your subscription is active again.").waitFor();
      await page.getByRole("button", { name: "Cancel subscription" }).waitFor();
      await summary.getByText("Next charge date").waitFor();
      expect(await page.getByRole("button", { name: "Uncancel" }).count()).toBe(0);

      // Change Plan: the current plan shown but disabled, I'm All In offered with its price.
      await page.getByRole("button", { name: "Change Plan" }).click();
      const change = page.getByRole("dialog", { name: "Change Plan" });
      const current = change.getByRole("radio", { name: /^True Supporter/ });
      await current.waitFor();
      expect(await current.isDisabled()).toBe(true);
      const premium = change.getByRole("radio", { name: /^I'm All In/ });
      expect(await premium.isDisabled()).toBe(false);
      await change.getByText(`${money(plan("premium-1m").price)} / month`).waitFor();
      // The manual provider charges nothing now: the change waits for the next cycle.
      expect(await change.getByText("Takes effect at the next billing cycle.").count()).toBe(2);
      await shot(page, `portal-change-plan-${width}`);
      // A monthly subscriber may look at the annual plans too.
      await change.getByText("Annual", { exact: true }).click();
      await change.getByText(`${money(plan("premium-1y").price)} / year`).waitFor();
      await change.getByText("Monthly", { exact: true }).click();

      await premium.check();
      await change.getByRole("button", { name: "Change Plan" }).click();
      await change.waitFor({ state: "detached" });
      await page.getByText(/^Your plan changes to premium-1m on /).waitFor();
      await summary.getByText("Changes to").waitFor();
      await summary.getByText(`I'm All In on ${longDate(sub.recur_at ?? "")}`).waitFor();
      await shot(page, `portal-changed-${width}`);

      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }

  for (const width of [1280, 390]) {
    it(`the open plan pages show to anyone (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });

      await page.goto("/plan-comparison/annually");
      const table = page.getByRole("table");
      await table.getByRole("columnheader", { name: plan("premium-1y").title }).waitFor();
      await table
        .getByRole("cell", { name: new RegExp(`^${money(plan("basic-1y").price).replace("$", "\\$")}`) })
        .waitFor();
      await table.getByRole("rowheader", { name: "8K context memory (beta)" }).waitFor();
      await shot(page, `comparison-${width}`);

      await page.goto("/subscribeOld");
      const basic = page.getByRole("region", { name: plan("basic-1m").title });
      expect(await hrefOf(basic.getByRole("link", { name: "Subscribe annually to True Supporter" }))).toBe(
        "/checkout?plan_id=basic-1y",
      );
      await shot(page, `subscribe-old-${width}`);

      await page.goto("/subscribe-crypto");
      await page.getByText("Your account is linked by hand").waitFor();
      const crypto = page.getByRole("region", { name: plan("basic-1m").title });
      const pay = crypto.getByRole("link", { name: /^Pay with crypto for True Supporter, monthly/ });
      expect(await hrefOf(pay)).toBe(CRYPTO_BASIC);
      // The annual plan has no link on this site.
      await crypto.getByText("Not offered on this site").waitFor();
      expect(await hrefOf(page.getByRole("link", { name: /ordinary subscribe page/ }))).toBe("/subscribe");
      await shot(page, `subscribe-crypto-${width}`);
      await checkA11y(page);

      expect(pageErrors).toEqual([]);
      await context.close();
    });
  }
});

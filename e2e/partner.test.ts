import { createHmac } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

const KEY = "partner-key-for-e2e-tests-0123456789";
const LOGOUT = "https://partner.example/logout";

/** A partner's token as docs/partner-mode.md describes it. */
function partnerToken(claims: { sub: string; name: string; username?: string }): string {
  const body = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) + 300 })).toString(
    "base64url",
  );
  return `${body}.${createHmac("sha256", KEY).update(body).digest("base64url")}`;
}

/** Partner mode (accounts-billing-admin §4): token sign-in lands signed in, with the partner navbar. */
describe.each([390, 1280])("partner mode at %i px", (width) => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({
        env: { HEARTH_EDITION: "partner", HEARTH_PARTNER_KEY: KEY, HEARTH_PARTNER_LOGOUT_URL: LOGOUT },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("signs the partner's user in from ?token= and shows the partner navbar", async () => {
    const { page, pageErrors } = await newPage(browser, server, { width });
    const token = partnerToken({ sub: `e2e-${width}`, name: "Robin Partner", username: `robin_${width}` });
    await page.goto(`/?token=${token}`);
    const navbar = page.getByRole("navigation", { name: "Partner navigation" });
    await navbar.getByRole("link", { name: "Home" }).waitFor();
    await expect
      .poll(() => page.getByRole("button", { name: /Account menu for/ }).textContent())
      .toContain("Robin Partner");
    // The token does not stay in the address, and there is no sign-in or sign-up to offer.
    expect(new URL(page.url()).searchParams.has("token")).toBe(false);
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(0);
    const me = await page.evaluate(async () => (await fetch("/api/me")).json());
    expect(me.name).toBe("Robin Partner");
    expect(pageErrors).toEqual([]);
  });

  it("sends a signed-out visitor to the partner's logout address", async () => {
    const { page, context } = await newPage(browser, server, { width });
    await context.route(`${LOGOUT}**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: '<!doctype html><html lang="en"><title>Partner</title><main><h1>Signed out</h1></main></html>',
      }),
    );
    await page.goto("/");
    await page.waitForURL(LOGOUT);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Signed out");
  });

  it("creates an external account from /external/signup", async () => {
    const { page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/external/signup");
    await page.getByRole("button", { name: "Create account" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Sam");
    await page.getByLabel("Username").fill("sam");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.getByText("Name should be of atleast 4 characters").isVisible()).toBe(true);
    expect(
      await page.getByText("Username is too short, it should be at least 4 characters long.").isVisible(),
    ).toBe(true);
    await page.getByLabel("Name", { exact: true }).fill("Samantha");
    await page.getByLabel("Username").fill(`sam_${width}`);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect
      .poll(() => page.getByRole("button", { name: /Account menu for/ }).textContent())
      .toContain("Samantha");
    expect(pageErrors).toEqual([]);
  });
});

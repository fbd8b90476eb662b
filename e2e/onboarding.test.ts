import type { Me, OnboardingState } from "@hearth/contract";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shot } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer } from "./harness.ts";

/**
 * /welcome (accounts-billing-admin §2.2, §4, §5): a member without a username chooses one with
 * its rules and the availability check, gives the consents, accepts the guidelines and is done;
 * the step is saved on the server, so a reload resumes where it was. Signed up here without a
 * username on purpose (as accounts made before usernames, or by the hosted login provider): the
 * guard sends such a member from any page to /welcome.
 */
describe("onboarding", () => {
  let server: HearthServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each([390, 1280])("onboards a member without a username at %i px", async (width) => {
    const { context, page, pageErrors } = await newPage(browser, server, { width });
    const email = `onboard-${width}-${Date.now()}@example.com`;
    const signUp = await context.request.post("/api/auth/sign-up/email", {
      data: { email, password: "correct horse battery", name: "Newcomer" },
    });
    expect(signUp.status(), await signUp.text()).toBe(200);

    await page.goto("/");
    await page.waitForURL(`${server.url}/welcome`);
    await page.getByRole("heading", { name: "Welcome aboard!" }).waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("You must confirm that you are 18 years or older.").waitFor();
    await page.getByText("You must agree with the terms and conditions.").waitFor();
    await page.getByText("Username can't be empty").waitFor();

    const username = page.getByLabel("Username");
    await username.fill("abc");
    await page.getByText("Username is invalid").waitFor();
    const chosen = `new_${width}_${Date.now().toString(36)}`.slice(0, 20);
    await username.fill(chosen.toUpperCase());
    await page.getByText("Username is available").waitFor();
    await page.getByLabel("Display name").fill("New Comer");
    await page.getByLabel("I confirm that I am 18 years or older").check();
    await page.getByLabel(/I agree with the/).check();
    await shot(page, `onboarding-welcome-${width}`);
    await page.getByRole("button", { name: "Continue" }).click();

    await page.getByRole("heading", { name: "Community guidelines" }).waitFor();
    const start = page.getByRole("button", { name: "Start Chatting" });
    expect(await start.isDisabled()).toBe(true);
    // The step was saved on the server: a reload (or another device) resumes here.
    await expect
      .poll(
        async () =>
          ((await (await context.request.get("/api/users/me/onboarding")).json()) as OnboardingState).step,
      )
      .toBe("guidelines");
    await page.reload();
    await page.getByRole("heading", { name: "Community guidelines" }).waitFor();
    await page.getByLabel("I have read and will follow the community guidelines").check();
    await page.getByRole("button", { name: "Start Chatting" }).click();
    await page.getByRole("heading", { name: /You're all set/ }).waitFor();
    await shot(page, `onboarding-done-${width}`);

    const me = (await (await context.request.get("/api/me")).json()) as Me;
    expect(me.username).toBe(chosen.toLowerCase());
    expect(me.name).toBe("New Comer");
    // With a username now, the guard lets home be home.
    await page.getByRole("button", { name: "Go to the chatbots" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome, New Comer" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

import type { Me } from "@hearth/contract";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetLinkIn, startSmtp } from "../apps/server/test/smtp.ts";
import { shot } from "./chat-tools-helpers.ts";
import { type HearthServer, launchBrowser, newPage, startServer, uniqueUsername } from "./harness.ts";

/**
 * Forgotten passwords (accounts-billing-admin, issue 12 point 5): "Forgot password?" on the sign-in
 * page, /forgot-password answering the same for every address, the mailed link (read from a local
 * SMTP server this test starts) opening /reset-password, and signing in with the new password.
 * Without SMTP_URL the page sends members to an administrator instead.
 */

const NEUTRAL = "If an account uses that address, we sent it a link.";
const oldPassword = "correct horse battery";
const newPassword = "a brand new passphrase";

describe("forgotten passwords", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: HearthServer;
  let bare: HearthServer;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtp();
    [server, bare, browser] = await Promise.all([
      startServer({ env: { SMTP_URL: smtp.url, HEARTH_MAIL_FROM: "Hearth <hearth@example.com>" } }),
      startServer(),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), bare?.stop()]);
    await smtp?.close();
  });

  it.each([390, 1280])("mails a link that sets a new password, at %i px", async (width) => {
    const member = { name: "Forgetful", email: `forgot-${width}-${Date.now()}@example.com` };
    const setup = await newPage(browser, server);
    const signUp = await setup.context.request.post("/api/auth/sign-up/email", {
      data: { ...member, password: oldPassword, username: uniqueUsername(`forgot${width}`) },
    });
    expect(signUp.status(), await signUp.text()).toBe(200);
    await setup.context.close();

    const { context, page, pageErrors } = await newPage(browser, server, { width });
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(`${server.url}/forgot-password`);
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText("Email can not be empty").waitFor();

    if (width === 390) {
      // An address without an account gets the same answer, and no mail is sent for it.
      await page.getByLabel("Email").fill("nobody-here@example.com");
      await page.getByRole("button", { name: "Send reset link" }).click();
      await page.getByText(NEUTRAL).waitFor();
      await page.goto("/forgot-password");
    }
    await page.getByLabel("Email").fill(member.email);
    await shot(page, `forgot-password-${width}`);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText(NEUTRAL).waitFor();
    await shot(page, `forgot-password-sent-${width}`);

    const mail = await smtp.next();
    expect(mail.to).toEqual([member.email]);
    expect(smtp.received()).toBe(0);
    const link = resetLinkIn(mail.body);
    expect(link.origin).toBe(server.url);

    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("Your password is changed.").waitFor();

    // The old password no longer opens the account; the new one does.
    const refused = await context.request.post("/api/auth/sign-in/email", {
      data: { email: member.email, password: oldPassword },
    });
    expect(refused.status()).toBe(401);
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    await page.getByLabel("Email").fill(member.email);
    await page.getByLabel("Password").fill(newPassword);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: `Welcome, ${member.name}` }).waitFor();
    const me = (await (await context.request.get("/api/me")).json()) as Me;
    expect(me.email).toBe(member.email);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it.each([390, 1280])("without mail, sends the member to an administrator, at %i px", async (width) => {
    const { context, page, pageErrors } = await newPage(browser, bare, { width });
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByText("Ask an administrator for a password reset link").waitFor();
    expect(await page.getByRole("button", { name: "Send reset link" }).count()).toBe(0);
    await shot(page, `forgot-password-no-mail-${width}`);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

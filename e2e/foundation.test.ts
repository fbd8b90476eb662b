import type { AppConfig, Me } from "@hearth/contract";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  startServer,
  uniqueUsername,
} from "./harness.ts";

/**
 * The web shell against a real server: sign-up, session persistence, permission-filtered
 * navigation, guards, sign-out, guests, not-found, and the admin users page.
 */

let server: HearthServer;
let browser: Browser;

const admin = {
  email: "admin@example.com",
  password: "admin-password-123",
  name: "Ops Admin",
  username: uniqueUsername("opsadmin"),
};

beforeAll(async () => {
  const dataDir = createDataDir();
  createAdmin(dataDir, admin);
  [server, browser] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function navLinks(page: Page): Promise<string[]> {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
}

function accountMenu(page: Page, name: string) {
  return page.getByRole("button", { name: `Account menu for ${name}` });
}

async function signOut(page: Page, name: string) {
  await accountMenu(page, name).click();
  await page.getByRole("menuitem", { name: /Sign out|Leave guest session/ }).click();
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("web shell", () => {
  it("asks for a username at sign-up: the §5 messages, availability, and a name taken meanwhile", async () => {
    const { context, page, pageErrors } = await newPage(browser, server, { width: 390 });
    await page.goto("/sign-up");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Username can't be empty").waitFor();

    const username = page.getByLabel("Username");
    await username.fill("abc");
    await page.getByText("Username is too short, it should be at least 4 characters long.").waitFor();
    await username.fill("not.allowed");
    await page.getByText("Username contain invalid characters").waitFor();
    // Another account's name, in other letters' case: refused after the debounced check.
    await username.fill(admin.username.toUpperCase());
    await page.getByText("Username is not available").waitFor();

    // Free when checked, then taken by someone else before Create account: the server's refusal
    // shows under the field, and no account is made.
    const wanted = uniqueUsername("raced");
    await username.fill(wanted);
    await page.getByText("Username is available").waitFor();
    const other = await newPage(browser, server);
    const taken = await other.context.request.post("/api/auth/sign-up/email", {
      data: {
        email: `other-${Date.now()}@example.com`,
        password: "correct horse battery",
        name: "Other",
        username: wanted,
      },
    });
    expect(taken.status(), await taken.text()).toBe(200);
    await other.context.close();
    await page.getByLabel("Display name").fill("Racer");
    await page.getByLabel("Email").fill(`racer-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Username is not available").waitFor();
    expect(await username.getAttribute("aria-invalid")).toBe("true");
    expect((await context.request.get("/api/me")).status()).toBe(401);

    const mine = uniqueUsername("Racer");
    await username.fill(mine.toUpperCase());
    await page.getByText("Username is available").waitFor();
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome, Racer" }).waitFor();
    const me = (await (await context.request.get("/api/me")).json()) as Me;
    expect(me.username).toBe(mine);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("signs up, stays signed in after a reload, sees member navigation, is denied admin, signs out", async () => {
    const { context, page, pageErrors } = await newPage(browser, server);
    const name = "Ada Tester";
    await page.goto("/sign-up");
    await page.getByLabel("Username").fill(uniqueUsername("ada"));
    await page.getByLabel("Display name").fill(name);
    await page.getByLabel("Email").fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();

    await page.waitForURL(`${server.url}/`);
    await page.getByRole("heading", { level: 1, name: `Welcome, ${name}` }).waitFor();

    await page.reload();
    await accountMenu(page, name).waitFor();
    expect(await navLinks(page)).toEqual([
      "Home",
      "Chats",
      "Create",
      "My Chatbots",
      "Favorites",
      "Recommended",
      "Personas",
      "Lorebooks",
      "Leaderboard",
      "Blocked creators",
    ]);
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    await page.getByRole("heading", { name: "No characters yet" }).waitFor();

    await page.goto("/admin/users");
    await page.waitForURL(`${server.url}/accessDenied`);
    await page.getByRole("heading", { name: "Access denied" }).waitFor();

    await signOut(page, name);
    await page.reload();
    await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    expect(await accountMenu(page, name).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("sends signed-out visitors to sign in, then back to where they were going", async () => {
    const { context, page } = await newPage(browser, server);
    await page.goto("/admin/users");
    await page.waitForURL((url) => url.pathname === "/sign-in");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/admin/users");

    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${server.url}/admin/users`);
    await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    await context.close();
  });

  it("shows wrong-password errors from the server", async () => {
    const { context, page } = await newPage(browser, server);
    await signIn(page, admin.email, "not-the-password");
    await page
      .getByRole("alert")
      .filter({ hasText: /invalid|incorrect|wrong/i })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await context.close();
  });

  it("lets a visitor continue as a guest, with the guest banner", async () => {
    const config = (await (await fetch(`${server.url}/api/config`)).json()) as AppConfig;
    expect(config.auth.guests).toBe(true);

    const { context, page } = await newPage(browser, server, { width: 390 });
    await page.goto("/sign-in");
    await page.getByRole("button", { name: "Continue as guest" }).click();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await page.getByRole("link", { name: "Sign Up Free" }).waitFor();

    await page.reload();
    await page.getByText("You're chatting as a guest. Your chats are not saved.").waitFor();
    await context.close();
  });

  it("shows the not-found page for unknown paths and for spec routes not built yet", async () => {
    const { context, page } = await newPage(browser, server);
    for (const path of ["/definitely/not/here", "/sale"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200); // SPA fallback; the client decides.
      await page.getByRole("heading", { name: "This page is gone." }).waitFor();
    }
    await context.close();
  });

  it("lets an admin find a user and change their plan", async () => {
    // A member to edit.
    const member = {
      name: "Plan Changer",
      email: `plan-${Date.now()}@example.com`,
      username: uniqueUsername("planchanger"),
    };
    const signup = await newPage(browser, server);
    await signup.page.goto("/sign-up");
    await signup.page.getByLabel("Username").fill(member.username);
    await signup.page.getByLabel("Display name").fill(member.name);
    await signup.page.getByLabel("Email").fill(member.email);
    await signup.page.getByLabel("Password").fill("correct horse battery");
    await signup.page.getByRole("button", { name: "Create account" }).click();
    await signup.page.getByRole("heading", { level: 1, name: `Welcome, ${member.name}` }).waitFor();
    await signup.context.close();

    const { context, page } = await newPage(browser, server);
    await signIn(page, admin.email, admin.password);
    await accountMenu(page, admin.name).waitFor();
    expect(await navLinks(page)).toEqual([
      "Home",
      "Chats",
      "Create",
      "My Chatbots",
      "Favorites",
      "Recommended",
      "Personas",
      "Lorebooks",
      "Leaderboard",
      "Blocked creators",
      "Users",
      "Reviews",
      "Models",
      "Billing",
      "Ads",
    ]);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
    await page.getByRole("searchbox", { name: "Search users" }).fill("Plan Changer");
    // The list shows a member's @username (the e-mail only for accounts without one).
    const row = page.getByRole("row").filter({ hasText: `@${member.username}` });
    await row.waitFor();
    // The search runs once typing pauses: wait for the list to narrow to the header + the match.
    await expect.poll(() => page.getByRole("row").count()).toBe(2);

    await row.getByRole("button", { name: `Edit ${member.name}` }).click();
    await page.getByLabel("Plan (role)").selectOption("premium");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await row.getByText("I'm All In").waitFor();

    await page.reload();
    await page.getByRole("searchbox", { name: "Search users" }).fill(member.email);
    await page
      .getByRole("row")
      .filter({ hasText: `@${member.username}` })
      .getByText("I'm All In")
      .waitFor();

    // Signing out on a guarded page lands on Home, signed out (not on the sign-in redirect).
    await signOut(page, admin.name);
    await page.waitForURL(`${server.url}/`);
    expect(await navLinks(page)).toEqual(["Home", "Recommended", "Leaderboard"]);
    await context.close();
  });
});

import type { Me } from "@hearth/contract";
import type { Browser, BrowserContext } from "playwright-core";
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
 * Checkout paid by arrangement (accounts-billing-admin §2.2 Checkout and Checkout success, §4,
 * §5; issue 13 points 2, 4 and 5), with HEARTH_MANUAL_PAYMENTS set: a member opens the checkout
 * of True Supporter, meets the §5 checks (Invalid Zip on blur, an invalid coupon), applies a
 * coupon an administrator issued at /admin/billing, places the order and lands on the success
 * page with the operator's instructions; the administrator marks it received; the member's
 * success page then says Success and /api/me has the tier. Leaving checkout logs an exit event.
 */

const shot = screenshots("checkout", { fullPage: true });

const PASSWORD = "correct horse battery";
const ADMIN = { email: "till@example.com", password: PASSWORD, name: "Till" };
const INSTRUCTIONS = "Transfer the amount to IBAN XX00 1234 5678 with your order id as the reference.";

async function signUp(context: BrowserContext, name: string) {
  const username = uniqueUsername(name);
  const email = `${username}@example.com`;
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { email, password: PASSWORD, name, username },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { user } = (await response.json()) as { user: { id: string } };
  return { id: user.id, email };
}

const me = async (context: BrowserContext) => (await (await context.request.get("/api/me")).json()) as Me;

describe("checkout paid by arrangement", () => {
  let server: HearthServer;
  let browser: Browser;

  beforeAll(async () => {
    const dataDir = createDataDir();
    createAdmin(dataDir, ADMIN);
    [server, browser] = await Promise.all([
      startServer({ dataDir, env: { HEARTH_MANUAL_PAYMENTS: INSTRUCTIONS } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function adminPage(width: number) {
    const admin = await newPage(browser, server, { width });
    const signIn = await admin.context.request.post("/api/auth/sign-in/email", {
      data: { email: ADMIN.email, password: PASSWORD },
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    return admin;
  }

  for (const width of [1280, 390]) {
    it(`a member pays by arrangement and an administrator confirms it (${width} px)`, async () => {
      const coupon = `HALF${width}`;
      const first = width > 600 ? "Ada" : "Grace";
      const last = width > 600 ? "Lovelace" : "Hopper";

      // The administrator issues a coupon at /admin/billing.
      const admin = await adminPage(width);
      await admin.page.goto("/admin/billing");
      await admin.page.getByRole("heading", { name: "Billing", level: 1 }).waitFor();
      await admin.page.getByRole("tab", { name: "Coupons" }).click();
      await admin.page.getByRole("button", { name: "Create coupon" }).click();
      await admin.page.getByText("Codes are 3 to 32 characters.").waitFor();
      await admin.page.getByLabel("Code").fill(coupon);
      await admin.page.getByLabel("Percent off").fill("50");
      await admin.page.getByRole("checkbox", { name: "True Supporter (monthly)" }).check();
      await admin.page.getByRole("button", { name: "Create coupon" }).click();
      await admin.page.getByText(`Coupon ${coupon} created.`).waitFor();
      const listed = admin.page
        .getByRole("region", { name: "Coupons" })
        .getByRole("listitem")
        .filter({ hasText: coupon });
      await listed.getByText("50% off").waitFor();
      await listed.getByText(/True Supporter \(monthly\) · 0 used · never expires/).waitFor();
      await shot(admin.page, `admin-coupons-${width}`);

      // The member opens the checkout: the plan's price before any address.
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      const member = await signUp(context, first);
      await page.goto("/checkout?plan_id=basic-1m");
      await page.getByRole("heading", { name: "Checkout", level: 1 }).waitFor();
      await page.getByText("True Supporter, billed monthly.").waitFor();
      const summary = page.getByRole("region", { name: "Order summary" });
      await summary.getByText("True Supporter (Monthly)").waitFor();
      await summary.getByText("$15.00").first().waitFor();
      await summary.getByText("From your address").waitFor();
      expect(await page.getByRole("radio", { name: "Pay by arrangement with the site" }).isChecked()).toBe(
        true,
      );
      await page.getByText(INSTRUCTIONS).waitFor();
      expect(await page.getByRole("button", { name: "Place order" }).isDisabled()).toBe(true);
      await shot(page, `checkout-${width}`);

      await page.getByLabel("First name").fill(first);
      await page.getByLabel("Last name").fill(last);
      expect(await page.getByLabel("Email").inputValue()).toBe(member.email);
      await page.getByLabel("Country").selectOption("US");
      // §5: checked on blur, 'Invalid Zip' for the US.
      const zip = page.getByLabel("ZIP code");
      await zip.fill("1234");
      await zip.blur();
      await page.getByText("Invalid Zip").waitFor();
      expect(await zip.getAttribute("aria-invalid")).toBe("true");
      await shot(page, `checkout-invalid-zip-${width}`);
      await zip.fill("94103");
      await zip.blur();
      await page.getByText("Invalid Zip").waitFor({ state: "detached" });
      await page.getByLabel("State").selectOption("CA");
      // Priced for the address now: no tax on the manual provider.
      await summary.getByText("From your address").waitFor({ state: "detached" });
      await summary.getByText("$0.00").waitFor();

      // An unknown coupon says so and holds the order back until it is removed.
      await page.getByLabel("Coupon code").fill("NOPE");
      await page.getByRole("button", { name: "Apply" }).click();
      await summary.getByText("Invalid coupon").waitFor();
      await page.getByRole("checkbox", { name: /I agree to the/ }).check();
      await page.getByText("Fix the problem shown.").waitFor();
      expect(await page.getByRole("button", { name: "Place order" }).isDisabled()).toBe(true);
      await shot(page, `checkout-invalid-coupon-${width}`);
      await page.getByRole("button", { name: "Remove the code NOPE" }).click();
      await page.getByLabel("Coupon code").fill(coupon.toLowerCase());
      await page.getByRole("button", { name: "Apply" }).click();
      await summary.getByText("−$7.50").waitFor();
      await summary.getByText("$7.50", { exact: true }).waitFor();
      await shot(page, `checkout-ready-${width}`);

      await page.getByRole("button", { name: "Place order" }).click();
      await page.waitForURL(/\/checkout\/success\?order_id=/);
      await page.getByRole("heading", { name: "Thank you for your order!" }).waitFor();
      await page.getByText("$7.50").waitFor();
      const details = page.getByRole("region", { name: "Payment Details" });
      await details.getByText("Waiting for payment").waitFor();
      await details.getByText("True Supporter (Monthly)").waitFor();
      await page.getByText(INSTRUCTIONS).waitFor();
      const orderId = new URL(page.url()).searchParams.get("order_id") ?? "";
      await details.getByText(orderId).waitFor();
      await shot(page, `checkout-success-pending-${width}`);

      // The administrator marks the payment received.
      await admin.page.getByRole("tab", { name: "Pending orders" }).click();
      const received = admin.page.getByRole("button", {
        name: `Mark received: ${first} ${last}, True Supporter (Monthly)`,
      });
      await received.waitFor();
      await admin.page.getByText(member.email).filter({ visible: true }).waitFor();
      await shot(admin.page, `admin-pending-${width}`);
      await received.click();
      await admin.page.getByText(`Received: ${first} ${last} is now on True Supporter (Monthly).`).waitFor();
      await received.waitFor({ state: "detached" });

      // The member's order is paid: Success, and the session has the tier.
      await page.reload();
      await page.getByRole("heading", { name: "Thank you for your purchase!" }).waitFor();
      await details.getByText("Success", { exact: true }).waitFor();
      await details.getByText("Subscription id").waitFor();
      expect(await page.getByText(INSTRUCTIONS).count()).toBe(0);
      await page.getByRole("link", { name: "Start Chatting" }).waitFor();
      await shot(page, `checkout-success-${width}`);
      await checkA11y(page);
      const after = await me(context);
      expect(after.role).toBe("basic");
      expect(after.status).toBe("active");

      expect(pageErrors).toEqual([]);
      expect(admin.pageErrors).toEqual([]);
      await context.close();
      await admin.context.close();
    });
  }

  for (const width of [1280, 390]) {
    it(`checkout without a plan, leaving it, and months granted by hand (${width} px)`, async () => {
      const { context, page, pageErrors } = await newPage(browser, server, { width });
      const member = await signUp(context, `Wanderer${width}`);

      await page.goto("/checkout");
      await page.getByRole("heading", { name: "Choose a plan first" }).waitFor();
      expect(await page.getByRole("link", { name: "See the plans" }).getAttribute("href")).toBe("/subscribe");
      await page.goto("/checkout?plan_id=gold-1m");
      await page.getByRole("heading", { name: "We couldn't find that plan" }).waitFor();
      await shot(page, `checkout-unknown-plan-${width}`);

      // §4: leaving checkout without an order logs an exit event, once.
      await page.goto("/checkout?plan_id=premium-1y");
      await page.getByText("I'm All In, billed yearly.").waitFor();
      if (width < 600) await page.getByRole("button", { name: "Open navigation" }).click();
      const home = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" });
      await home.waitFor();
      // The accessibility check of this state runs now, not inside the wait for the request.
      await checkA11y(page);
      const exit = page.waitForRequest(
        (request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/checkout/exit",
      );
      await home.click();
      const sent = await exit;
      expect(sent.postDataJSON()).toEqual({ plan_id: "premium-1y", stage: "details" });

      // An administrator grants two months of I'm All In.
      const admin = await adminPage(width);
      await admin.page.goto("/admin/billing");
      await admin.page.getByRole("tab", { name: "Grant months" }).click();
      await admin.page.getByRole("button", { name: "Grant months" }).click();
      await admin.page.getByText("Enter the member's account id.").waitFor();
      await admin.page.getByLabel("User id", { exact: true }).fill(member.id);
      await admin.page.getByLabel("Plan", { exact: true }).selectOption("premium-1m");
      await admin.page.getByLabel("Months", { exact: true }).fill("2");
      await admin.page.getByRole("button", { name: "Grant months" }).click();
      await admin.page.getByText(/^Granted 2 months of I'm All In\. It runs until /).waitFor();
      await shot(admin.page, `admin-grant-${width}`);
      expect((await me(context)).role).toBe("premium");

      expect(pageErrors).toEqual([]);
      expect(admin.pageErrors).toEqual([]);
      await context.close();
      await admin.context.close();
    });
  }
});

import { mkdirSync } from "node:fs";
import type { Character, CharacterCreate } from "@hearth/contract";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAdmin,
  createDataDir,
  type HearthServer,
  launchBrowser,
  newPage,
  startServer,
} from "./harness.ts";
import { png } from "./png.ts";

/**
 * The Characters screens against a real server: create → edit → profile → My Chatbots → delete
 * through the UI, drafts surviving a reload, avatar upload, browse search, the editor refused to
 * someone else, and screenshots of every screen at 1280 and 390 px (HEARTH_E2E_SHOTS=dir).
 */

let server: HearthServer;
let browser: Browser;
const password = "correct horse battery";
const admin = { email: "moderator@example.com", password: "moderator-password-1", name: "Mod Erator" };

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A server for one group of tests. The server rate-limits each address (600 requests a minute,
 * page assets included), so the tests are split over two servers to stay below it.
 */
function serverForGroup() {
  beforeAll(async () => {
    const dataDir = createDataDir();
    createAdmin(dataDir, admin);
    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop();
  });
}

interface Member {
  name: string;
  email: string;
  username: string;
}

let counter = 0;
function member(name: string): Member {
  counter += 1;
  const slug = `${name.toLowerCase().replace(/\W+/g, "_")}_${counter}`;
  return { name, email: `${slug}-${Date.now()}@example.com`, username: slug.slice(0, 20) };
}

/** Signs up through the API inside the browser context, so the page shares the session cookie. */
async function signUp(context: BrowserContext, who: Member): Promise<void> {
  const response = await context.request.post("/api/auth/sign-up/email", {
    data: { ...who, password },
    headers: { origin: server.url },
  });
  if (!response.ok()) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
}

async function memberPage(who: Member, width = 1280) {
  const opened = await newPage(browser, server, { width });
  await signUp(opened.context, who);
  return opened;
}

async function createViaApi(context: BrowserContext, fields: CharacterCreate): Promise<Character> {
  const response = await context.request.post("/api/characters?switch=T1", {
    data: fields,
    headers: { origin: server.url },
  });
  if (!response.ok()) throw new Error(`create failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as Character;
}

function navLink(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

describe("characters: create, edit, drafts, avatars", () => {
  serverForGroup();

  it("creates, edits, shows, lists and deletes a chatbot through the UI", async () => {
    const creator = member("Cora Creator");
    const { context, page, pageErrors } = await memberPage(creator);
    await page.goto("/");
    await navLink(page, "Create").click();
    // A new visit gets a draft id in the address at once.
    await page.waitForURL(/\/chatbot\/create\/draft-[a-z0-9]+$/);

    await page.getByLabel("Name", { exact: true }).fill("Mira E2E");
    await page.getByLabel("Title").fill("A wandering mapmaker");
    await page.getByLabel("Greeting", { exact: true }).fill("*unrolls a map* Where to, traveller?");
    await page.getByLabel("Personality", { exact: true }).fill("Curious, warm and a little stubborn.");
    // A card's personality summary has its own field (issue 19).
    await page.getByLabel("Personality summary").fill("Dry humour, loyal");
    const tags = page.getByLabel("Tags", { exact: true });
    await tags.fill("fantasy");
    await tags.press("Enter");
    await tags.fill("mentor,");
    await expect
      .poll(() => page.getByRole("list", { name: "Chosen tags" }).getByRole("listitem").count())
      .toBe(2);
    await page.getByRole("button", { name: "Create chatbot" }).click();

    // A new bot opens its chat (accounts-billing-admin §2.2), or its profile while chat isn't built.
    await page.waitForURL(/\/(chat|chatbot)\/[0-9a-f-]{36}$/);
    const [, opened, id = ""] = new URL(page.url()).pathname.split("/");
    // Let the chat draw before leaving it: the accessibility check looks at the page as it is then.
    if (opened === "chat") {
      await page.getByRole("heading", { level: 1, name: "Mira E2E" }).waitFor();
      await page.goto(`/chatbot/${id}`);
    }
    await page.getByRole("heading", { level: 1, name: "Mira E2E" }).waitFor();
    const chatNow = page.getByRole("link", { name: "Chat Now" });
    if (opened === "chat") expect(await chatNow.getAttribute("href")).toBe(`/chat/${id}`);
    else
      expect(await page.getByRole("button", { name: "Chat Now" }).getAttribute("aria-disabled")).toBe("true");
    await page.getByText("Curious, warm and a little stubborn.").waitFor();
    // The creator can't favorite their own bot; a private bot has no Share.
    expect(await page.getByRole("button", { name: /^Favorite/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Share" }).count()).toBe(0);

    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await page.waitForURL(`${server.url}/chatbot/edit/${id}`);
    await page.getByRole("heading", { level: 1, name: "Edit Mira E2E" }).waitFor();
    expect(await page.getByLabel("Personality summary").inputValue()).toBe("Dry humour, loyal");
    await page.getByLabel("Title").fill("A mapmaker who knows every shortcut");
    await page.getByText("Unsaved changes").waitFor();
    // Leaving with unsaved changes asks first.
    await navLink(page, "My Chatbots").click();
    await page.getByRole("dialog", { name: "Unsaved Changes" }).waitFor();
    await page.getByRole("button", { name: "Stay and keep editing" }).click();
    expect(page.url()).toBe(`${server.url}/chatbot/edit/${id}`);
    const patch = page.waitForRequest(
      (r) => r.method() === "PATCH" && r.url().includes(`/api/characters/${id}`),
    );
    await page.getByRole("button", { name: "Save changes" }).click();
    // Only the changed field is sent (chat-and-characters §5).
    expect((await patch).postDataJSON()).toEqual({ title: "A mapmaker who knows every shortcut" });
    await page.getByText("Changes saved").waitFor();

    await page.getByRole("link", { name: "View profile" }).click();
    await page.getByText("A mapmaker who knows every shortcut").waitFor();

    await navLink(page, "My Chatbots").click();
    const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Mira E2E" }) });
    await card.getByText("PRIVATE").waitFor();
    await card.getByRole("button", { name: "Actions for Mira E2E" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete Mira E2E?" }).waitFor();
    await page.getByRole("button", { name: "Delete chatbot" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await card.waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "You haven't made a chatbot yet" }).waitFor();
    expect((await context.request.get(`/api/characters/${id}`)).status()).toBe(404);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("keeps a draft through a reload and lists it on the Drafts page", async () => {
    const { context, page } = await memberPage(member("Dana Drafter"));
    await page.goto("/chatbot/create");
    await page.waitForURL(/\/chatbot\/create\/draft-/);
    const draftUrl = page.url();
    await page.getByLabel("Name", { exact: true }).fill("Half-written Hero");
    await page.getByLabel("Scenario").fill("A storm is coming.");
    await page.getByText(/Draft saved on this device/).waitFor();

    await page.reload();
    expect(page.url()).toBe(draftUrl);
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Half-written Hero");
    expect(await page.getByLabel("Scenario").inputValue()).toBe("A storm is coming.");

    await page.goto("/my-chatbots");
    await page.getByText("1 draft on this device").waitFor();
    await page.getByRole("link", { name: "Drafts", exact: true }).click();
    await page.waitForURL(`${server.url}/my-chatbots/drafts`);
    await page.getByRole("link", { name: "Half-written Hero" }).click();
    await page.waitForURL(draftUrl);
    expect(await page.getByLabel("Scenario").inputValue()).toBe("A storm is coming.");

    await page.goto("/chatbots/drafts");
    await page.getByRole("button", { name: "Delete draft Half-written Hero" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete draft" }).click();
    await page.getByRole("heading", { name: "No drafts" }).waitFor();
    await context.close();
  });

  it("uploads an avatar in the editor and shows the server's error for a bad file", async () => {
    const { context, page } = await memberPage(member("Ava Uploader"));
    const bot = await createViaApi(context, { name: "Pixel Pal", title: "Needs a face" });
    expect(bot.avatar_url).toBeNull();
    await page.goto(`/chatbot/edit/${bot.id}`);
    await page.getByRole("heading", { level: 1, name: "Edit Pixel Pal" }).waitFor();

    const picker = page.getByLabel("Upload image");
    await picker.setInputFiles({
      name: "face.png",
      mimeType: "image/png",
      buffer: png(64, 64, [200, 90, 40]),
    });
    const avatar = page.getByRole("img", { name: "Avatar of Pixel Pal" }).first();
    await expect.poll(() => avatar.getAttribute("src")).toMatch(/^\/|^http/);
    const saved = (await (await context.request.get(`/api/characters/${bot.id}`)).json()) as Character;
    expect(saved.avatar_url).toBeTruthy();
    expect(await avatar.getAttribute("src")).toBe(saved.avatar_url);
    // The picture really loads.
    await expect
      .poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);

    await page.getByLabel("Change image").setInputFiles({
      name: "notes.png",
      mimeType: "image/png",
      buffer: Buffer.from("not a picture at all"),
    });
    await page.getByRole("alert").filter({ hasNotText: "review" }).first().waitFor();
    expect(await page.getByRole("img", { name: "Avatar of Pixel Pal" }).first().getAttribute("src")).toBe(
      saved.avatar_url,
    );
    await context.close();
  });
});

describe("characters: browse, access, review, signed-out", () => {
  serverForGroup();

  it("finds a public chatbot with the browse search, and refuses the editor to another user", async () => {
    const owner = await memberPage(member("Otto Owner"));
    const bot = await createViaApi(owner.context, {
      name: "Zephyrine Quill",
      title: "Poet of the northern winds",
      tags: ["poetry"],
      visibility: "public",
    });
    await createViaApi(owner.context, { name: "Other Public Bot", visibility: "public" });
    await owner.context.close();

    const { context, page, pageErrors } = await memberPage(member("Rhea Reader"), 390);
    await page.goto("/");
    await page.getByRole("link", { name: "Other Public Bot" }).waitFor();
    await page.getByRole("searchbox", { name: "Search characters" }).fill("zephyr");
    await expect
      .poll(() => page.getByRole("list", { name: "Characters" }).getByRole("article").count())
      .toBe(1);
    await page.getByRole("link", { name: "Zephyrine Quill" }).click();
    await page.waitForURL(`${server.url}/chatbot/${bot.id}`);
    await page.getByRole("heading", { level: 1, name: "Zephyrine Quill" }).waitFor();
    await page.getByRole("button", { name: "Favorite", exact: true }).click();
    await page.getByRole("button", { name: "Favorited" }).waitFor();
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByRole("dialog", { name: "Share this Chatbot" }).getByRole("textbox").waitFor();
    await page.keyboard.press("Escape");

    await page.goto(`/chatbot/edit/${bot.id}`);
    await page.getByRole("heading", { name: "You are not allowed to access this page" }).waitFor();
    expect(await page.getByLabel("Name", { exact: true }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows review outcomes: ACTION badge, a synced fix draft, the Rejected banner and the review queue", async () => {
    const { context, page } = await memberPage(member("Fixer Felix"));
    const bot = await createViaApi(context, {
      name: "Needs Work",
      title: "Draft quality",
      visibility: "hidden",
    });
    const moderator = await newPage(browser, server);
    const signIn = await moderator.context.request.post("/api/auth/sign-in/email", {
      data: { email: admin.email, password: admin.password },
      headers: { origin: server.url },
    });
    expect(signIn.ok()).toBe(true);
    const decision = await moderator.context.request.put(`/api/admin/characters/${bot.id}/moderation`, {
      data: { moderation_status: "fix_required", reason_for_moderation: ["The greeting is empty"] },
      headers: { origin: server.url },
    });
    expect(decision.ok()).toBe(true);
    await moderator.context.close();

    await page.goto("/my-chatbots");
    const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Needs Work" }) });
    await card.getByText("ACTION").waitFor();
    // Drafts are synced for fix_required bots (§4): the Drafts card counts it, the draft opens the editor.
    await page.getByText("1 draft on this device").waitFor();
    await page.goto("/my-chatbots/drafts");
    await page.getByRole("link", { name: "Needs Work" }).click();
    await page.waitForURL(`${server.url}/chatbot/edit/${bot.id}`);
    await page
      .getByRole("alert")
      .filter({ hasText: "Rejected" })
      .getByText("The greeting is empty")
      .waitFor();

    await page.getByLabel("Greeting", { exact: true }).fill("Hello there!");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Changes saved").waitFor();
    await page.reload();
    await page.getByText("This chatbot is in the review queue").waitFor();
    await context.close();
  });

  it("shows the Unlock Bot Creation hero to signed-out visitors", async () => {
    const { context, page } = await newPage(browser, server, { width: 390 });
    await page.goto("/chatbot/create");
    await page.getByRole("heading", { name: "Create your own chatbot" }).waitFor();
    await page.getByRole("link", { name: "Unlock Bot Creation" }).click();
    await page.waitForURL((url) => url.pathname === "/sign-up");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/chatbot/create");
    await page.getByRole("heading", { level: 1, name: "Create your account" }).waitFor();
    await context.close();
  });
});

/**
 * Screenshots of every screen for a person to look at (set HEARTH_E2E_SHOTS to a directory). Each
 * width gets its own server: the server's per-address rate limit also counts the page's assets.
 */
describe.runIf(process.env.HEARTH_E2E_SHOTS)("characters screenshots", () => {
  for (const width of [1280, 390]) {
    it(`captures each screen at ${width} px`, async () => {
      const dir = process.env.HEARTH_E2E_SHOTS ?? "/tmp/shots-characters";
      mkdirSync(dir, { recursive: true });
      const own = await startServer();
      try {
        await captureScreens(own, dir, width);
      } finally {
        await own.stop();
      }
    });
  }
});

async function captureScreens(target: HearthServer, dir: string, width: number) {
  const open = async (who: Member | null, signUpFirst = false) => {
    const opened = await newPage(browser, target, { width });
    if (who) {
      const path = signUpFirst ? "/api/auth/sign-up/email" : "/api/auth/sign-in/email";
      const response = await opened.context.request.post(path, {
        data: signUpFirst ? { ...who, password } : { email: who.email, password },
        headers: { origin: target.url },
      });
      if (!response.ok()) throw new Error(`${path}: ${response.status()} ${await response.text()}`);
    }
    return opened;
  };
  const creator = member("Mira Maker");
  const reader = member("Rita Reader");
  const seed = await open(creator, true);
  const create = async (fields: CharacterCreate) => {
    const response = await seed.context.request.post("/api/characters?switch=T1", {
      data: fields,
      headers: { origin: target.url },
    });
    return (await response.json()) as Character;
  };
  const bots: Character[] = [];
  for (const [name, title, tags, rgb] of [
    [
      "Mira the Cartographer",
      "A wandering mapmaker who knows every shortcut",
      ["fantasy", "mentor"],
      [190, 110, 60],
    ],
    ["Captain Vey", "Smuggler captain of the starship Wren", ["sci-fi", "space"], [60, 110, 190]],
    ["Rook", "Your sarcastic rival in the chess club", ["comedy"], [150, 60, 160]],
  ] as const) {
    const bot = await create({
      name,
      title,
      tags: [...tags],
      visibility: "public",
      definition_visible: name !== "Rook",
      greeting: `*${name} looks up.* Oh! Company. What brings you here?`,
      persona: `${name}: curious, warm, a little stubborn.`,
      scenario: "A quiet evening.",
    });
    await seed.context.request.post(`/api/characters/${bot.id}/avatar`, {
      multipart: { file: { name: "a.png", mimeType: "image/png", buffer: png(96, 120, [...rgb]) } },
      headers: { origin: target.url },
    });
    bots.push(bot);
  }
  await create({ name: "Secret Project", visibility: "private" });
  const [first, second] = bots as [Character, Character];
  await (await open(reader, true)).context.close();

  const screens: Array<[string, string, Member | null]> = [
    ["home-signed-out", "/", null],
    ["create-signed-out", "/chatbot/create", null],
    ["home", "/", reader],
    ["profile", `/chatbot/${first.id}`, reader],
    ["profile-missing", "/chatbot/not-a-bot", reader],
    ["create", "/chatbot/create", reader],
    ["edit-refused", `/chatbot/edit/${first.id}`, reader],
    ["my-chatbots-empty", "/my-chatbots", reader],
    ["drafts", "/my-chatbots/drafts", reader],
    ["creator", `/creator/${creator.username}`, reader],
    ["favorites", "/favorites", reader],
    ["profile-creator", `/chatbot/${second.id}`, creator],
    ["edit", `/chatbot/edit/${first.id}`, creator],
    ["my-chatbots", "/my-chatbots", creator],
  ];
  // One context per person, so assets come from the browser cache after the first page.
  const pages = new Map<string, Page>([[creator.email, seed.page]]);
  for (const [name, path, who] of screens) {
    const key = who?.email ?? "visitor";
    let page = pages.get(key);
    if (!page) {
      page = (await open(who)).page;
      pages.set(key, page);
    }
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  for (const page of pages.values()) await page.context().close();
}

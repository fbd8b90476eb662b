import { createServer, type Server } from "node:http";
import type {
  ApiError,
  Character,
  CharacterPage,
  Conversation,
  ConversationCreated,
  PersonaList,
} from "@hearth/contract";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  type HearthServer,
  launchBrowser,
  newPage,
  startServer,
  uniqueUsername,
} from "./harness.ts";
import { png } from "./png.ts";

/**
 * Cross-site request forgery against a signed-in user, in Chromium. A page on another origin of
 * the same site (localhost on another port: the browser sends its SameSite=Lax session cookie
 * along) tries a plain form post, no-cors fetches with text/plain JSON, and multipart uploads.
 * Each reaches Hearth with the victim's cookie and is refused; the API then shows nothing
 * changed. The same forms and uploads from Hearth's own pages do work, so the refusals are the
 * Origin check's doing. Hearth's pages also raise no Content-Security-Policy violation.
 */

let server: HearthServer;
let browser: Browser;
let attacker: { url: string; server: Server };

const card = JSON.stringify({
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: { name: "Planted Bot", description: "Imported by someone else's page.", first_mes: "Hi." },
});

const cardFile = { name: "card.json", mimeType: "application/json", buffer: Buffer.from(card) };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  // The attacker's site: an empty page. Its scripts are run by the test through page.evaluate.
  const port = await freePort();
  const page = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Free prizes</title>");
  });
  await new Promise<void>((done) => page.listen(port, "127.0.0.1", done));
  attacker = { url: `http://localhost:${port}`, server: page };
});

afterAll(async () => {
  if (attacker) await new Promise((done) => attacker.server.close(done));
  await browser?.close();
  await server?.stop();
});

/** What came back for one request, read at once (a navigation would take the body away). */
interface Attempt {
  method: string;
  url: string;
  status: number;
  /** null when Chromium kept no body (an opaque no-cors answer usually). */
  code: string | null;
}

async function attemptOf(response: Response): Promise<Attempt> {
  const body = await response.text().catch(() => null);
  return {
    method: response.request().method(),
    url: response.url(),
    status: response.status(),
    code: body === null ? null : (JSON.parse(body) as ApiError).code,
  };
}

/** Builds a form on the page (DOM calls, no inline script), attaches a file if asked, submits it. */
async function submitForm(
  page: Page,
  action: string,
  file?: { name: string; mimeType: string; buffer: Buffer },
): Promise<Attempt> {
  await page.evaluate(
    ({ action, withFile }) => {
      const form = document.createElement("form");
      form.method = "POST";
      form.action = action;
      form.id = "forged";
      // text/plain: the one form encoding fastify parses besides JSON, so the likeliest to land.
      form.enctype = "text/plain";
      if (withFile) {
        form.enctype = "multipart/form-data";
        const input = document.createElement("input");
        input.type = "file";
        input.name = "file";
        form.append(input);
      }
      document.body.append(form);
    },
    { action, withFile: Boolean(file) },
  );
  if (file) {
    await page.locator("#forged input").setInputFiles(file);
  }
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url() === action && r.request().method() === "POST"),
    page.evaluate(() => (document.getElementById("forged") as HTMLFormElement).submit()),
  ]);
  const attempt = await attemptOf(response);
  await page.waitForURL(action); // the tab now shows Hearth's answer
  return attempt;
}

/** fetch() from the page with the user's cookies; no-cors lets it go cross-origin without asking. */
async function pageFetch(
  page: Page,
  url: string,
  init: { method: string; text?: string; file?: string; noCors: boolean },
): Promise<Attempt> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url() === url && r.request().method() === init.method),
    page.evaluate(
      async ({ url, init }) => {
        let body: BodyInit | undefined = init.text;
        if (init.file) {
          body = new FormData();
          body.append("file", new Blob([Uint8Array.from(atob(init.file), (c) => c.charCodeAt(0))]), "a.png");
        }
        await fetch(url, {
          method: init.method,
          mode: init.noCors ? "no-cors" : "cors",
          credentials: "include",
          ...(init.text !== undefined ? { headers: { "content-type": "text/plain" } } : {}),
          body,
        });
      },
      { url, init },
    ),
  ]);
  return attemptOf(response);
}

/**
 * The headers Chromium really sent (cookies and Origin included, which Playwright's request
 * objects do not always report for no-cors requests), read from the DevTools protocol.
 */
async function sentHeaders(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  // The two events for one request may come in either order: joined when asked.
  const requests = new Map<string, { url: string; method: string }>();
  const extras = new Map<string, Record<string, string>>();
  cdp.on("Network.requestWillBeSent", (e) =>
    requests.set(e.requestId, { url: e.request.url, method: e.request.method }),
  );
  cdp.on("Network.requestWillBeSentExtraInfo", (e) => {
    extras.set(
      e.requestId,
      Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
    );
  });
  return (method: string, url: string) =>
    [...requests]
      .filter(([, request]) => request.method === method && request.url === url)
      .map(([id]) => extras.get(id) ?? {});
}

async function signUp(context: BrowserContext, name: string): Promise<void> {
  const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
  const res = await context.request.post("/api/auth/sign-up/email", {
    data: { email, password: "correct horse battery", name, username: uniqueUsername(name) },
  });
  expect(res.status(), await res.text()).toBe(200);
}

describe("cross-site requests against a signed-in user", () => {
  it("a page on another origin changes nothing: form post, no-cors fetches, multipart uploads", async () => {
    const creator = await newPage(browser, server);
    await signUp(creator.context, "Creator");
    const theirs = (await (
      await creator.context.request.post("/api/characters", {
        data: { name: "Public Bot", visibility: "public" },
      })
    ).json()) as Character;

    // The victim: signed in, with a chat, a bot of their own and a tab on the attacker's site.
    const victim = await newPage(browser, server);
    await signUp(victim.context, "Victim");
    const api = victim.context.request;
    const mine = (await (
      await api.post("/api/characters", { data: { name: "My Bot" } })
    ).json()) as Character;
    const chat = (await (
      await api.post("/api/conversations", { data: { character_id: theirs.id } })
    ).json()) as ConversationCreated;
    const conversationUrl = `${server.url}/api/conversations/${chat.conversation.id}`;
    const state = async () => ({
      favorite: ((await (await api.get(`/api/characters/${theirs.id}`)).json()) as Character).is_favorite,
      title: ((await (await api.get(conversationUrl)).json()) as Conversation).label,
      avatar: ((await (await api.get(`/api/characters/${mine.id}?switch=T1`)).json()) as Character)
        .avatar_url,
      bots: ((await (await api.get("/api/users/characters")).json()) as CharacterPage).characters
        .map((c) => c.name)
        .sort(),
      personas: ((await (await api.get("/api/personas")).json()) as PersonaList).personas.length,
    });
    const before = await state();
    expect(before).toEqual({
      favorite: false,
      title: chat.conversation.label,
      avatar: null,
      bots: ["My Bot"],
      personas: 0,
    });

    const page = victim.page;
    const patched: string[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "PATCH") patched.push(response.url());
    });
    const sent = await sentHeaders(victim.context, page);
    await page.goto(attacker.url);
    const picture = png(16, 16, [200, 40, 40]);
    const text = (url: string, body: unknown) =>
      pageFetch(page, url, { method: "POST", text: JSON.stringify(body), noCors: true });
    const attempts: Attempt[] = [
      // text/plain is a "simple" body: no-cors sends it, with the cookie, without asking.
      await text(`${server.url}/api/characters/${theirs.id}/favorite`, {}),
      await text(`${server.url}/api/personas`, { name: "Planted" }),
      // So is multipart/form-data.
      await pageFetch(page, `${server.url}/api/characters/${mine.id}/avatar`, {
        method: "POST",
        file: picture.toString("base64"),
        noCors: true,
      }),
      await pageFetch(page, `${server.url}/api/characters/import`, {
        method: "POST",
        file: Buffer.from(card).toString("base64"),
        noCors: true,
      }),
      // And a plain form, which navigates the tab to Hearth's answer.
      await submitForm(page, `${server.url}/api/characters/import`, cardFile),
    ];
    await page.goto(attacker.url);
    attempts.push(await submitForm(page, `${server.url}/api/characters/${theirs.id}/favorite`));

    // The forms' answers are pages, always readable: there the reason is plain to see.
    expect(attempts.filter((a) => a.code === "crossOrigin").length).toBeGreaterThanOrEqual(2);
    for (const attempt of attempts) {
      const where = `${attempt.method} ${attempt.url}`;
      // The browser did attach the victim's session: only the Origin check stood in the way.
      const requests = sent(attempt.method, attempt.url);
      expect(requests.length, where).toBeGreaterThan(0);
      for (const headers of requests) {
        expect(headers.cookie, where).toMatch(/hearth\.session_token=/);
        expect(headers.origin, where).toBe(attacker.url);
      }
      expect(attempt.status, where).toBe(403);
      if (attempt.code !== null) expect(attempt.code, where).toBe("crossOrigin");
    }

    // PATCH cannot go no-cors at all; a CORS attempt needs a preflight Hearth never grants.
    await page.goto(attacker.url);
    const patch = await page.evaluate(async (url) => {
      try {
        await fetch(url, {
          method: "PATCH",
          credentials: "include",
          headers: { "content-type": "text/plain" },
          body: '{"label":"Pwned"}',
        });
        return "sent";
      } catch (error) {
        return (error as Error).name;
      }
    }, conversationUrl);
    expect(patch).toBe("TypeError");
    expect(patched).toEqual([]); // the PATCH itself never reached Hearth
    expect(await state()).toEqual(before);
    await creator.context.close();
    await victim.context.close();
  });

  it("the same forms and uploads from Hearth's own pages work, with no CSP violation on the way", async () => {
    const creator = await newPage(browser, server);
    await signUp(creator.context, "Maker");
    const theirs = (await (
      await creator.context.request.post("/api/characters", {
        data: { name: "Open Bot", visibility: "public", greeting: "Hello there." },
      })
    ).json()) as Character;
    await creator.context.close();

    const { context, page, pageErrors } = await newPage(browser, server);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) violations.push(message.text());
    });
    await signUp(context, "Owner");
    const api = context.request;
    const mine = (await (
      await api.post("/api/characters", { data: { name: "Own Bot" } })
    ).json()) as Character;

    // The app's screens render under the policy: home, a bot's profile, a chat, the editor.
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    await page.goto(`/chatbot/${theirs.id}`);
    await page.getByRole("heading", { level: 1, name: "Open Bot" }).waitFor();
    await page.goto(`/chat/${theirs.id}`);
    await page.waitForURL(new RegExp(`/chat/${theirs.id}/[^/]+$`));
    await page.locator('[data-role="bot"] [data-message-bubble]').first().waitFor();
    const conversationId = new URL(page.url()).pathname.split("/")[3] as string;
    await page.goto(`/chatbot/edit/${mine.id}`);
    await page.getByRole("heading", { level: 1, name: "Edit Own Bot" }).waitFor();

    const own = server.url;
    const favorite = await pageFetch(page, `${own}/api/characters/${theirs.id}/favorite`, {
      method: "POST",
      noCors: false,
    });
    expect(favorite.status).toBe(200);
    const rename = await page.evaluate(async (url) => {
      const res = await fetch(url, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ label: "Renamed here" }),
      });
      return res.status;
    }, `${own}/api/conversations/${conversationId}`);
    expect(rename).toBe(200);
    // text/plain is refused even from Hearth's own pages: a JSON body must say it is JSON.
    const plain = await pageFetch(page, `${own}/api/conversations/${conversationId}`, {
      method: "PATCH",
      text: '{"label":"As text"}',
      noCors: false,
    });
    expect(plain.status).toBe(415);
    const avatar = await pageFetch(page, `${own}/api/characters/${mine.id}/avatar`, {
      method: "POST",
      file: png(16, 16, [40, 200, 40]).toString("base64"),
      noCors: false,
    });
    expect(avatar.status).toBe(200);
    const upload = await pageFetch(page, `${own}/api/characters/import`, {
      method: "POST",
      file: Buffer.from(card).toString("base64"),
      noCors: false,
    });
    expect(upload.status).toBe(201);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    const form = await submitForm(page, `${own}/api/characters/import`, cardFile);
    expect(form.status).toBe(201);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    expect((await submitForm(page, `${own}/api/characters/${theirs.id}/favorite`)).status).toBe(200);

    const bot = (await (await api.get(`/api/characters/${theirs.id}`)).json()) as Character;
    expect(bot.is_favorite).toBe(true);
    const chat = (await (await api.get(`/api/conversations/${conversationId}`)).json()) as Conversation;
    expect(chat.label).toBe("Renamed here");
    const edited = (await (await api.get(`/api/characters/${mine.id}?switch=T1`)).json()) as Character;
    expect(edited.avatar_url).not.toBeNull();
    const list = (await (await api.get("/api/users/characters")).json()) as CharacterPage;
    expect(list.characters.filter((c) => c.name === "Planted Bot")).toHaveLength(2);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

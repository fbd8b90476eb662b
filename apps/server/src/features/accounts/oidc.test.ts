import { createServer } from "node:net";
import type { AppConfig, Me } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { CookieBrowser, startOidcProvider } from "../../../test/oidc-provider.ts";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("sign-in through a hosted OIDC login provider", () => {
  let hearth: TestHearth;
  let idp: Awaited<ReturnType<typeof startOidcProvider>>;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    idp = await startOidcProvider({
      redirectUri: `${base}/api/auth/callback/hosted`,
      clientId: "hearth",
      clientSecret: "hearth-secret",
    });
    hearth = await startTestHearth({
      env: {
        PUBLIC_URL: base,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: "hearth",
        OIDC_CLIENT_SECRET: "hearth-secret",
        OIDC_LABEL: "Sign in with Example ID",
      },
    });
    await hearth.app.listen({ port, host: "127.0.0.1" });
  });

  afterAll(async () => {
    await hearth.stop();
    await idp.close();
  });

  it("advertises the provider in /api/config", async () => {
    const res = await fetch(`${base}/api/config`);
    expect(((await res.json()) as AppConfig).auth.oidc).toEqual({
      provider_id: "hosted",
      label: "Sign in with Example ID",
    });
  });

  it("logs in at the provider, consents, returns to Hearth with a session", async () => {
    const browser = new CookieBrowser();
    const start = await browser.go(`${base}/api/auth/sign-in/social`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ provider: "hosted", callbackURL: "/" }),
    });
    const { url: authorizeUrl } = (await start.res.json()) as { url: string };
    expect(authorizeUrl.startsWith(idp.issuer)).toBe(true);

    // The provider's login screen, then its consent screen, then back to Hearth.
    const login = await browser.go(authorizeUrl);
    expect(await login.res.text()).toContain('name="login"');
    const consent = await browser.go(`${login.url.toString()}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "prompt=login&login=ada&password=whatever",
    });
    const done = await browser.go(consent.url.toString(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "prompt=consent",
    });
    expect(done.url.origin).toBe(base);

    const me = await fetch(`${base}/api/me`, { headers: { cookie: browser.cookiesFor(base) } });
    expect(me.status).toBe(200);
    const body = (await me.json()) as Me;
    expect(body).toMatchObject({ email: "ada@idp.example", name: "IdP ada", is_guest: false, role: "free" });
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (node-oidc-provider) running in this process, with its
 * development login and consent screens, standing in for a hosted login provider.
 */
export async function startOidcProvider(opts: {
  redirectUri: string;
  clientId: string;
  clientSecret: string;
}) {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: `${id}@idp.example`,
          email_verified: true,
          name: `IdP ${id}`,
        }),
      };
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A minimal browser: follows redirects across origins and keeps cookies per host. */
export class CookieBrowser {
  private jar = new Map<string, Map<string, string>>();

  private cookieHeader(url: URL): string {
    return [...(this.jar.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(url: URL, res: Response) {
    const jar = this.jar.get(url.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.jar.set(url.host, jar);
  }

  /** One request, then every redirect after it; answers the last response and its URL. */
  async go(input: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
    let url = new URL(input);
    let method = init.method ?? "GET";
    let body = init.body;
    let headers = init.headers ?? {};
    for (let hop = 0; hop < 20; hop++) {
      const res = await fetch(url, {
        method,
        body,
        redirect: "manual",
        headers: { ...headers, cookie: this.cookieHeader(url) },
      });
      this.store(url, res);
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return { res, url };
      url = new URL(location, url);
      method = "GET";
      body = undefined;
      headers = {};
    }
    throw new Error("too many redirects");
  }

  cookiesFor(origin: string): string {
    return this.cookieHeader(new URL(origin));
  }
}

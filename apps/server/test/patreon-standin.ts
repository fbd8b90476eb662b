import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Patreon's OAuth2 and API v2 (the pledge-linking API tests and e2e test):
 * `/oauth2/authorize` approves at once and sends the browser back with a code, as Patreon does
 * for a member who already allowed the client; `/api/oauth2/token` trades the code once, for the
 * right client and redirect URI; `/api/oauth2/v2/identity` answers the JSON:API document with the
 * patron's membership to the campaign. Which patron authorizes next, and whether the token
 * exchange fails, are set by the test.
 */

export interface StandinPledge {
  amountCents: number;
  /** Patreon's patron_status; `active_patron` unless told. */
  status?: "active_patron" | "declined_patron" | "former_patron";
  tierTitle?: string;
}

export interface StandinPatron {
  /** The patron's Patreon user id. */
  id: string;
  /** Their membership to the campaign; null for someone who never pledged. */
  pledge: StandinPledge | null;
}

export interface PatreonStandin {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization is for. */
  patron: StandinPatron;
  /** The token endpoint refuses every code while true (Patreon's `invalid_grant`). */
  failTokenExchange: boolean;
  /** Authorization requests seen, newest last (their query). */
  authorizations: URLSearchParams[];
  stop(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });

function identityOf(patron: StandinPatron) {
  const memberId = `member-${patron.id}`;
  const tierId = `tier-${patron.id}`;
  const pledge = patron.pledge;
  return {
    data: {
      id: patron.id,
      type: "user",
      attributes: {},
      relationships: { memberships: { data: pledge ? [{ id: memberId, type: "member" }] : [] } },
    },
    included: pledge
      ? [
          {
            id: memberId,
            type: "member",
            attributes: {
              patron_status: pledge.status ?? "active_patron",
              currently_entitled_amount_cents: pledge.amountCents,
            },
            relationships: { currently_entitled_tiers: { data: [{ id: tierId, type: "tier" }] } },
          },
          { id: tierId, type: "tier", attributes: { title: pledge.tierTitle ?? "Supporter" } },
        ]
      : [],
    links: { self: `https://www.patreon.com/api/oauth2/v2/user/${patron.id}` },
  };
}

export async function startPatreonStandin(): Promise<PatreonStandin> {
  const codes = new Map<string, { patron: StandinPatron; redirectUri: string }>();
  const tokens = new Map<string, StandinPatron>();
  const standin: Omit<PatreonStandin, "url" | "stop"> = {
    clientId: "standin-client",
    clientSecret: "standin-secret",
    patron: { id: "1001", pledge: null },
    failTokenExchange: false,
    authorizations: [],
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://standin.local");
      if (req.method === "GET" && url.pathname === "/oauth2/authorize") {
        const q = url.searchParams;
        standin.authorizations.push(q);
        const redirectUri = q.get("redirect_uri");
        if (q.get("response_type") !== "code" || q.get("client_id") !== standin.clientId || !redirectUri) {
          return json(res, 400, { error: "invalid_request" });
        }
        const code = randomBytes(12).toString("hex");
        // The patron as they are now: a later change in the test is a later authorization.
        codes.set(code, { patron: structuredClone(standin.patron), redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set("code", code);
        if (q.get("state") !== null) back.searchParams.set("state", q.get("state") ?? "");
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === "POST" && url.pathname === "/api/oauth2/token") {
        const form = new URLSearchParams(await readBody(req));
        if (standin.failTokenExchange) return json(res, 400, { error: "invalid_grant" });
        const grant = codes.get(form.get("code") ?? "");
        const valid =
          form.get("grant_type") === "authorization_code" &&
          form.get("client_id") === standin.clientId &&
          form.get("client_secret") === standin.clientSecret &&
          grant !== undefined &&
          grant.redirectUri === form.get("redirect_uri");
        if (!valid || !grant) return json(res, 400, { error: "invalid_grant" });
        codes.delete(form.get("code") ?? "");
        const accessToken = randomBytes(16).toString("hex");
        tokens.set(accessToken, grant.patron);
        return json(res, 200, {
          access_token: accessToken,
          refresh_token: randomBytes(16).toString("hex"),
          expires_in: 2678400,
          scope: "identity",
          token_type: "Bearer",
        });
      }
      if (req.method === "GET" && url.pathname === "/api/oauth2/v2/identity") {
        const patron = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
        if (!patron) return json(res, 401, { errors: [{ code_name: "Unauthorized" }] });
        if (!url.searchParams.get("include")?.split(",").includes("memberships")) {
          // Patreon includes no memberships unless asked to.
          return json(res, 200, { ...identityOf({ ...patron, pledge: null }), included: [] });
        }
        return json(res, 200, identityOf(patron));
      }
      json(res, 404, { errors: [{ code_name: "NotFound" }] });
    })().catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(standin, {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The env that points a Hearth at the stand-in. */
export const standinEnv = (standin: PatreonStandin, tiers = "minimal:500,basic:1500,premium:2500") => ({
  HEARTH_PATREON_CLIENT_ID: standin.clientId,
  HEARTH_PATREON_CLIENT_SECRET: standin.clientSecret,
  HEARTH_PATREON_URL: standin.url,
  HEARTH_PATREON_TIERS: tiers,
});

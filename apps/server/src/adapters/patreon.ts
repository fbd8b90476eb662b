import { z } from "zod";
import {
  type ActivePledge,
  type PledgePlatform,
  PledgePlatformError,
  type PledgeToken,
} from "../ports/pledges.ts";

/**
 * Patreon's OAuth2 and API v2 (docs.patreon.com, "APIv2: OAuth" and "Resource Endpoints"):
 * `/oauth2/authorize` in the browser, `/api/oauth2/token` for the code, then
 * `/api/oauth2/v2/identity` with the member's memberships. Only the `identity` scope is asked
 * for: without `identity.memberships` Patreon answers the member's membership to this client's
 * own campaign alone, which is the pledge that counts here (not pledges to other creators).
 */

export interface PatreonOptions {
  clientId: string;
  clientSecret: string;
  /** https://www.patreon.com, or a stand-in's address in tests. */
  baseUrl: string;
  /** How long one call to Patreon may take. */
  timeoutMs?: number;
}

const tokenAnswer = z.object({ access_token: z.string().min(1) });

const resourceRef = z.object({ id: z.string(), type: z.string() });
const identityAnswer = z.object({
  data: z.object({ id: z.string().min(1), type: z.literal("user") }),
  included: z
    .array(
      z.object({
        id: z.string(),
        type: z.string(),
        attributes: z.record(z.string(), z.unknown()).optional(),
        relationships: z
          .object({
            currently_entitled_tiers: z.object({ data: z.array(resourceRef).nullable() }).optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});

const memberAttributes = z.object({
  /** active_patron, declined_patron, former_patron, or null for a follower who never pledged. */
  patron_status: z.string().nullable().optional(),
  currently_entitled_amount_cents: z.number().int().nullable().optional(),
});

export class PatreonPlatform implements PledgePlatform {
  readonly id = "patreon";
  readonly name = "Patreon";

  constructor(private options: PatreonOptions) {}

  /** The base without a trailing slash, so a stand-in under a path keeps it. */
  private get base(): string {
    return this.options.baseUrl.replace(/\/+$/, "");
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${this.base}/oauth2/authorize`);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: this.options.clientId,
      redirect_uri: redirectUri,
      scope: "identity",
      state,
    }).toString();
    return url.toString();
  }

  async exchangeCode(code: string, redirectUri: string): Promise<PledgeToken> {
    const body = new URLSearchParams({
      code,
      grant_type: "authorization_code",
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
      redirect_uri: redirectUri,
    });
    const answer = await this.request("/api/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: body.toString(),
    });
    const parsed = tokenAnswer.safeParse(answer);
    if (!parsed.success) throw new PledgePlatformError("Patreon's token answer had no access token");
    return { accessToken: parsed.data.access_token };
  }

  async activePledge(token: PledgeToken): Promise<ActivePledge | null> {
    const query = new URLSearchParams({
      include: "memberships,memberships.currently_entitled_tiers",
      "fields[member]": "patron_status,currently_entitled_amount_cents",
      "fields[tier]": "title",
    });
    const answer = await this.request(`/api/oauth2/v2/identity?${query}`, {
      headers: { authorization: `Bearer ${token.accessToken}`, accept: "application/json" },
    });
    const parsed = identityAnswer.safeParse(answer);
    if (!parsed.success) throw new PledgePlatformError("Patreon's identity answer was not understood");
    const included = parsed.data.included ?? [];
    let best: ActivePledge | null = null;
    for (const resource of included) {
      if (resource.type !== "member") continue;
      const member = memberAttributes.safeParse(resource.attributes ?? {});
      if (!member.success) continue;
      const cents = member.data.currently_entitled_amount_cents ?? 0;
      // A declined or former patron may still show an amount: only an active one counts.
      if (member.data.patron_status !== "active_patron" || cents <= 0) continue;
      if (best && best.amountCents >= cents) continue;
      const tierId = resource.relationships?.currently_entitled_tiers?.data?.[0]?.id;
      const tier = included.find((r) => r.type === "tier" && r.id === tierId);
      const title = tier?.attributes?.title;
      best = {
        externalUserId: parsed.data.data.id,
        amountCents: cents,
        tierTitle: typeof title === "string" ? title : null,
      };
    }
    return best;
  }

  /** One call to Patreon: JSON back, or PledgePlatformError with what went wrong. */
  private async request(path: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        ...init,
        redirect: "error",
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (cause) {
      throw new PledgePlatformError(`Patreon could not be reached (${(cause as Error).message})`, { cause });
    }
    if (!response.ok) {
      // The body may echo what was sent (the code); only the status goes to the log.
      await response.body?.cancel();
      throw new PledgePlatformError(`Patreon answered ${response.status} to ${path.split("?")[0]}`);
    }
    try {
      return await response.json();
    } catch (cause) {
      throw new PledgePlatformError("Patreon's answer was not JSON", { cause });
    }
  }
}

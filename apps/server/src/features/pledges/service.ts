import { randomBytes } from "node:crypto";
import {
  NO_ACTIVE_PLEDGE,
  type PaidRole,
  PLEDGE_LINK_ERROR,
  type PledgeAuthorization,
  type PledgeLinkResult,
  type PledgeLinkStatus,
  roleTitle,
} from "@hearth/contract";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { PledgeTier } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { type ActivePledge, type PledgePlatform, PledgePlatformError } from "../../ports/pledges.ts";
import { lockAccount, setEntitlement, type Viewer } from "../accounts/index.ts";
import { clearLinkRole, hasLivePaidSubscription, linkByExternalId, linkOf, saveLink } from "./queries.ts";
import { seal, unseal } from "./sealed.ts";

/** A platform this site links to, and the tiers its pledge amounts map to. */
export interface LinkablePlatform {
  platform: PledgePlatform;
  tiers: PledgeTier[];
}

export interface PledgeServiceDeps {
  db: Db;
  /** Signs the OAuth state and the transient result ids. */
  secret: string;
  platforms: LinkablePlatform[];
  log: FastifyBaseLogger;
}

/** How long a member has at the platform before the state expires, and a result stays readable. */
const STATE_SECONDS = 15 * 60;
const RESULT_SECONDS = 15 * 60;

/** The redirect URI the code is for, and a nonce; the member and service are bound by the signature. */
const statePayload = z.object({ r: z.string(), n: z.string() });

/** Why a result came out as it did; its message is made from this, so the transient id stays short. */
const REASONS = ["linked", "subscribed", "none", "small", "taken", "failed"] as const;
type Reason = (typeof REASONS)[number];
/** Kept short: the transient id is a path segment (fastify allows 100 characters). */
const resultPayload = z.object({
  w: z
    .number()
    .int()
    .min(0)
    .max(REASONS.length - 1),
  r: z.enum(["minimal", "basic", "premium"]).nullable(),
});

/** What a signed value is bound to: it opens only for this member and this service. */
const boundTo = (userId: string, service: string) => `${userId}\n${service}`;

const statusOf: Record<Reason, PledgeLinkStatus> = {
  linked: "success",
  subscribed: "success",
  none: "invalid_pledge",
  small: "invalid_pledge",
  taken: "error",
  failed: "error",
};

/** The tier a monthly pledge of `cents` grants: the highest threshold it reaches, or null. */
export function tierFor(tiers: PledgeTier[], cents: number): PaidRole | null {
  let best: PledgeTier | null = null;
  for (const tier of tiers)
    if (cents >= tier.minCents && (!best || tier.minCents > best.minCents)) best = tier;
  return best?.role ?? null;
}

const badState = () =>
  new HttpError(
    400,
    "invalidRequest",
    "This linking request has expired or was started from another account. Start linking again.",
  );

/**
 * Pledge linking (accounts-billing-admin §2.2, §4, §7, §8): sends the member to the platform with
 * a signed state, trades the code that comes back for their active pledge, and grants the tier
 * it maps to, unless a paid subscription decides the tier for now.
 */
export class PledgeService {
  private byId: Map<string, LinkablePlatform>;

  constructor(private deps: PledgeServiceDeps) {
    this.byId = new Map(deps.platforms.map((p) => [p.platform.id, p]));
  }

  private linkable(service: string): LinkablePlatform {
    const found = this.byId.get(service);
    if (!found) throw notFound("Linking a pledge with this service is not set up on this site.");
    return found;
  }

  /** Where the browser goes to authorize; it comes back to `${origin}/link/${service}`. */
  authorize(viewer: Viewer, service: string, origin: string, now = new Date()): PledgeAuthorization {
    const { platform } = this.linkable(service);
    const redirectUri = `${origin}/link/${service}`;
    const state = seal(
      this.deps.secret,
      "state",
      boundTo(viewer.id, service),
      { r: redirectUri, n: randomBytes(9).toString("base64url") },
      STATE_SECONDS,
      now,
    );
    return { service, name: platform.name, authorize_url: platform.authorizeUrl(state, redirectUri) };
  }

  /** The authorization return: refuses a state that is not this member's, then links. */
  async complete(
    viewer: Viewer,
    service: string,
    input: { code: string; state: string },
    now = new Date(),
  ): Promise<PledgeLinkResult> {
    const linkable = this.linkable(service);
    const state = unseal(
      this.deps.secret,
      "state",
      boundTo(viewer.id, service),
      input.state,
      statePayload,
      now,
    );
    if (!state) throw badState();

    let pledge: ActivePledge | null;
    try {
      const token = await linkable.platform.exchangeCode(input.code, state.r);
      pledge = await linkable.platform.activePledge(token);
    } catch (error) {
      if (!(error instanceof PledgePlatformError)) throw error;
      this.deps.log.warn({ err: error, service }, "pledge linking failed at the platform");
      return this.present(viewer.id, linkable, "failed", null, now);
    }
    const role = pledge ? tierFor(linkable.tiers, pledge.amountCents) : null;
    const why = await this.apply(viewer, service, pledge, role, now);
    return this.present(viewer.id, linkable, why, role, now);
  }

  /** A result again, by its transient id: only for the member it was for, and only for a while. */
  result(viewer: Viewer, service: string, transientId: string, now = new Date()): PledgeLinkResult {
    const linkable = this.linkable(service);
    const found = unseal(
      this.deps.secret,
      "result",
      boundTo(viewer.id, service),
      transientId,
      resultPayload,
      now,
    );
    const why = found ? REASONS[found.w] : undefined;
    if (!found || !why) throw notFound("This linking result has expired. Link your account again.");
    return this.present(viewer.id, linkable, why, found.r, now);
  }

  /** Records the link and grants (or takes back) the tier, in one transaction. */
  private async apply(
    viewer: Viewer,
    service: string,
    pledge: ActivePledge | null,
    role: PaidRole | null,
    now: Date,
  ): Promise<Reason> {
    return this.deps.db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      // One linking at a time per account: the subscription check and the role write agree.
      await lockAccount(tx, viewer.id);
      // A live paid subscription keeps deciding the tier (decision 012: the subscription row is
      // the truth of users.role): writing the pledge's tier over it would change what the member
      // pays for, and the next billing event would silently overwrite it back. The link is still
      // recorded, so the pledge counts once the subscription has ended.
      const subscribed = await hasLivePaidSubscription(tx, viewer.id, now);
      if (!pledge || !role) {
        const previous = await linkOf(tx, viewer.id, service);
        if (previous?.role) {
          await clearLinkRole(tx, viewer.id, service, now);
          // Take back only what the pledge gave: the role is still the one it granted.
          if (!subscribed && viewer.role === previous.role) {
            await setEntitlement(tx, viewer.id, { role: "free", status: "inactive" });
          }
        }
        return pledge ? "small" : "none";
      }
      const holder = await linkByExternalId(tx, service, pledge.externalUserId);
      // One pledge, one account: otherwise a single patron could unlock any number of them.
      if (holder && holder.userId !== viewer.id) return "taken";
      await saveLink(tx, {
        userId: viewer.id,
        service,
        externalUserId: pledge.externalUserId,
        role,
        checkedAt: now,
      });
      if (subscribed) return "subscribed";
      await setEntitlement(tx, viewer.id, { role, status: "active" });
      return "linked";
    });
  }

  private present(
    userId: string,
    { platform, tiers }: LinkablePlatform,
    why: Reason,
    role: PaidRole | null,
    now: Date,
  ): PledgeLinkResult {
    const smallest = Math.min(...tiers.map((t) => t.minCents));
    const messages: Record<Reason, string> = {
      linked: `Your ${platform.name} pledge is linked: your account now has ${role ? roleTitle[role] : "its tier"}.`,
      subscribed: `Your ${platform.name} pledge is linked (${role ? roleTitle[role] : "a tier"}). Your paid subscription keeps deciding your plan while it lasts.`,
      none: NO_ACTIVE_PLEDGE,
      small: `${NO_ACTIVE_PLEDGE} at a tier: pledges here start at $${(smallest / 100).toFixed(2)} a month.`,
      taken: `This ${platform.name} account is already linked to another member. Sign in to that account instead.`,
      failed: PLEDGE_LINK_ERROR,
    };
    const status = statusOf[why];
    const transientId = seal(
      this.deps.secret,
      "result",
      boundTo(userId, platform.id),
      { w: REASONS.indexOf(why), r: role },
      RESULT_SECONDS,
      now,
    );
    return {
      service: platform.id,
      name: platform.name,
      status,
      message: messages[why],
      role: status === "success" ? role : null,
      role_applied: why === "linked",
      transient_id: transientId,
    };
  }
}

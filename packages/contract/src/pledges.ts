import { z } from "zod";
import { paidRole } from "./billing.ts";

/**
 * Pledge linking (accounts-billing-admin §2.2 "Pledge-service linking pages", §4, §7, §8): a
 * member authorizes Hearth at a pledge platform (Patreon first), and an active pledge there maps
 * to a paid tier here.
 */

/** The `{pledge_service}` segment: a platform's id as Hearth names it (`patreon`). */
export const pledgeService = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-z0-9-]+$/, "Not a pledge service");

export const pledgeServiceParams = z.object({ pledge_service: pledgeService });

/** A linking result's transient id: signed by the server, so only its shape is checked here (a path segment: 100 at most). */
export const pledgeTransientParams = z.object({
  pledge_service: pledgeService,
  transientId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/, "Not a linking result"),
});

/** The authorization return: the platform's code and the state Hearth sent it away with. */
export const pledgeOauthQuery = z.object({
  code: z.string().min(1, "The authorization code is missing.").max(1024),
  state: z.string().min(1, "The linking state is missing.").max(1024),
});

/** GET /api/link/{pledge_service}: where to send the browser to authorize Hearth. */
export const pledgeAuthorization = z.object({
  service: pledgeService,
  /** The platform's name as people know it (Patreon). */
  name: z.string(),
  authorize_url: z.string(),
});
export type PledgeAuthorization = z.infer<typeof pledgeAuthorization>;

/** §4: linking (the client's own state while it waits), then one of these. */
export const PLEDGE_LINK_STATUSES = ["success", "invalid_pledge", "error"] as const;
export const pledgeLinkStatus = z.enum(PLEDGE_LINK_STATUSES);
export type PledgeLinkStatus = z.infer<typeof pledgeLinkStatus>;

/** §8: the server's message when the platform reports no active pledge. */
export const NO_ACTIVE_PLEDGE = "no active pledge found";
/** §8: what the linking page says for it. */
export const NO_ACTIVE_PLEDGE_TITLE = "No active pledge found";
/** §8: what the linking page says when linking failed, with a reload. */
export const PLEDGE_LINK_ERROR = "There was an error linking your account.";

export const pledgeLinkResult = z.object({
  service: pledgeService,
  name: z.string(),
  status: pledgeLinkStatus,
  message: z.string(),
  /** The tier the pledge maps to; null without one. */
  role: paidRole.nullable(),
  /**
   * Whether the account now has that tier. False when a paid subscription is live: the
   * subscription keeps deciding the tier while it lasts.
   */
  role_applied: z.boolean(),
  /** Reads this result again for a short while (GET /api/link/{pledge_service}/{transientId}). */
  transient_id: z.string(),
});
export type PledgeLinkResult = z.infer<typeof pledgeLinkResult>;

/**
 * A pledge platform members link their account to (Patreon first): OAuth2's authorization-code
 * flow, then what the member pledges to this site's campaign. The pledges feature speaks only
 * this interface; the platform's own JSON never leaves its adapter.
 */

/** What the platform's token endpoint gave for one authorization. */
export interface PledgeToken {
  accessToken: string;
}

/** An active pledge: the member's id at the platform and what they pledge a month. */
export interface ActivePledge {
  externalUserId: string;
  amountCents: number;
  /** The platform's name for the tier they are entitled to, when it says. */
  tierTitle: string | null;
}

export interface PledgePlatform {
  /** The `{pledge_service}` segment (`patreon`). */
  readonly id: string;
  /** Its name as people know it (Patreon). */
  readonly name: string;
  /** Where the browser goes to let the member authorize Hearth; it comes back to redirectUri. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** Trades the code from the return for a token; rejects with PledgePlatformError when refused. */
  exchangeCode(code: string, redirectUri: string): Promise<PledgeToken>;
  /** The member's active pledge to this site, or null when there is none. */
  activePledge(token: PledgeToken): Promise<ActivePledge | null>;
}

/** The platform refused, failed or answered something unreadable; the cause is for the log. */
export class PledgePlatformError extends Error {
  override readonly name = "PledgePlatformError";
}

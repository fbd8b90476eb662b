import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { inWords } from "./allowance.ts";
import { ACCOUNT_RULE, ADDRESS_RULE, AuthCounters, addressKey, type LockRule } from "./throttle.ts";

/**
 * Every place a secret is tried (a password at sign-in, change-password and verify-password; a
 * reset link; a request for one) reserves an attempt on its account and its address before the
 * check runs, so that no number of parallel requests, on any number of processes, checks more
 * than a lock's threshold before the rest are refused.
 */

/**
 * What an attempt turned out to be: `wrong` stays counted, `right` clears the account (the owner
 * proved themselves) and gives the address its attempt back, `other` (a malformed form, a refusal
 * before any check) gives both back.
 */
export type AttemptOutcome = "wrong" | "right" | "other";

/**
 * The kinds of attempt, each with its own counters: password guesses through any route count
 * together, reset requests and reset links apart from them (asking for a reset is no guess).
 */
export type AttemptKind = "password" | "resetRequest" | "resetLink";

export interface Attempt {
  kind: AttemptKind;
  /** The account's e-mail, lowercased, when the attempt names one. */
  email: string | null;
  /** The client's address (`req.ip`). */
  ip: string;
  /** Counts against the site's rate of sign-ins too. */
  site?: boolean;
  /** Where the web pages are, for a link mailed when this attempt locks the account. */
  linkBase?: string;
}

const KEYS: Record<AttemptKind, { account: string; address: string }> = {
  password: { account: "signin-account", address: "signin-address" },
  resetRequest: { account: "reset-request-account", address: "reset-request-address" },
  resetLink: { account: "reset-link-account", address: "reset-link-address" },
};

const REFUSALS: Record<AttemptKind, (wait: string) => string> = {
  password: (wait) => `Too many failed sign-ins. Please wait ${wait} before trying again.`,
  resetRequest: (wait) => `Too many password reset requests. Please wait ${wait} before asking again.`,
  resetLink: (wait) => `Too many tries with reset links. Please wait ${wait} before trying again.`,
};

/** The counter key of an account's password guesses (cleared by an unlock link). */
export const passwordAccountKey = (email: string) => `${KEYS.password.account}:${email}`;

/** The one counter of the whole site's sign-ins, a window of a minute. */
const SITE_KEY = "signin-site";
const SITE_WINDOW_SECONDS = 60;

export interface PasswordAttemptsOptions {
  /** Sign-ins the whole site checks per minute; 0 means no limit. */
  signInsPerMinute: number;
  /**
   * Called when an account's password guesses set its first lock of the window (so at most once
   * per lock, and once a day unless the owner clears it), e.g. to mail an unlock link.
   */
  onFirstAccountLock?: (email: string, linkBase: string | undefined) => void;
  now?: () => Date;
}

export class PasswordAttempts {
  private readonly counters: AuthCounters;

  constructor(
    db: Db,
    private readonly opts: PasswordAttemptsOptions,
  ) {
    this.counters = new AuthCounters(db, opts.now);
  }

  /**
   * Runs `check` under a reserved attempt, or refuses with 429 (and Retry-After) while the
   * account, the address or the site is at its limit. `outcome` judges what `check` answered,
   * `thrown` what it threw (rethrown after; by default it gives the attempt back).
   */
  async run<T>(
    attempt: Attempt,
    check: () => Promise<T>,
    outcome: (result: T) => AttemptOutcome | Promise<AttemptOutcome>,
    thrown: (error: unknown) => AttemptOutcome = () => "other",
  ): Promise<T> {
    const keys = KEYS[attempt.kind];
    const held: [string, LockRule][] = [];
    const release = () => Promise.all(held.map(([key]) => this.counters.giveBack(key)));
    const wanted: [string, LockRule][] = [[`${keys.address}:${addressKey(attempt.ip)}`, ADDRESS_RULE]];
    if (attempt.email) wanted.unshift([`${keys.account}:${attempt.email}`, ACCOUNT_RULE]);
    for (const [key, rule] of wanted) {
      const reservation = await this.counters.reserve(key, rule);
      if (!reservation.reserved) {
        await release();
        if (reservation.lock === 1 && rule === ACCOUNT_RULE) this.firstLock(attempt);
        throw new HttpError(429, "tooManyAttempts", REFUSALS[attempt.kind](inWords(reservation.wait)), {
          retryAfter: reservation.wait,
        });
      }
      held.push([key, rule]);
    }
    if (attempt.site) await this.takeSiteAttempt(release);

    let result: T;
    try {
      result = await check();
    } catch (error) {
      await this.settle(attempt, held, thrown(error));
      throw error;
    }
    await this.settle(attempt, held, await outcome(result));
    return result;
  }

  private async settle(attempt: Attempt, held: [string, LockRule][], outcome: AttemptOutcome) {
    for (const [key, rule] of held) {
      const account = rule === ACCOUNT_RULE;
      if (outcome === "wrong") {
        const lock = await this.counters.failed(key, rule);
        if (lock === 1 && account) this.firstLock(attempt);
      } else if (outcome === "right" && account) {
        await this.counters.clear(key);
      } else {
        await this.counters.giveBack(key);
      }
    }
  }

  private async takeSiteAttempt(release: () => Promise<unknown>) {
    const limit = this.opts.signInsPerMinute;
    if (limit <= 0) return;
    const wait = await this.counters.take(SITE_KEY, limit, SITE_WINDOW_SECONDS);
    if (wait === 0) return;
    await release();
    throw new HttpError(
      429,
      "rateLimited",
      `Too many people are signing in right now. Please try again in ${inWords(wait)}.`,
      { retryAfter: wait },
    );
  }

  /** Only password guesses mail their owner: a reset request or link proves nothing about them. */
  private firstLock(attempt: Attempt) {
    if (attempt.kind === "password" && attempt.email) {
      this.opts.onFirstAccountLock?.(attempt.email, attempt.linkBase);
    }
  }
}

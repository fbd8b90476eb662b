import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { AuthCounters, addressKey } from "./throttle.ts";

/**
 * Allowances per client address and day: new guests (their message allowance would otherwise
 * reset at will) and new accounts, by e-mail sign-up and partner mode's external sign-up alike.
 */

/** "45 seconds", "2 minutes", "1 hour". */
export function inWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), "second");
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? unit(minutes, "minute") : unit(Math.ceil(minutes / 60), "hour");
}

export interface Allowance {
  /** The counter's name, before the client's address. */
  kind: "guest-signin" | "signup";
  /** Uses per address in 24 hours; 0 means no limit. */
  perDay: number;
  /** The refusal, given how long until the window ends in words. */
  refusal: (wait: string) => string;
}

/**
 * Takes one use for this client, or refuses with 429 and Retry-After; then does the work, and
 * gives the use back when it failed (threw, or `failed` says so), so a mistyped form costs nothing.
 */
export async function withinAllowance<T>(
  counters: AuthCounters,
  allowance: Allowance,
  req: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<T>,
  failed: (result: T) => boolean = () => false,
): Promise<T> {
  if (allowance.perDay <= 0) return work();
  const key = `${allowance.kind}:${addressKey(req.ip)}`;
  const wait = await counters.take(key, allowance.perDay);
  if (wait > 0) {
    reply.header("retry-after", String(wait));
    throw new HttpError(429, "limitReached", allowance.refusal(inWords(wait)));
  }
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await counters.giveBack(key);
    throw error;
  }
  if (failed(result)) await counters.giveBack(key);
  return result;
}

export const guestAllowance = (perDay: number): Allowance => ({
  kind: "guest-signin",
  perDay,
  refusal: (wait) =>
    `Guest visits from your network are used up for today. Sign up for a free account to keep chatting, or come back in ${wait}.`,
});

export const signUpAllowance = (perDay: number): Allowance => ({
  kind: "signup",
  perDay,
  refusal: (wait) => `Too many new accounts were made from your network today. Please try again in ${wait}.`,
});

/** The sign-up allowance for routes outside this feature (partner mode's external sign-up). */
export function signUpGate(db: Db, perDay: number) {
  const counters = new AuthCounters(db);
  const allowance = signUpAllowance(perDay);
  return <T>(req: FastifyRequest, reply: FastifyReply, work: () => Promise<T>) =>
    withinAllowance(counters, allowance, req, reply, work);
}

import { accountLifecycleEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { passwordAccountKey } from "./password-attempts.ts";
import { AuthCounters } from "./throttle.ts";
import { consumeUnlockToken } from "./unlock.ts";

export const UNLOCK_LINK_INVALID = "This unlock link is not valid: it was used already, or it has expired.";

/**
 * Where the unlock page sends a mailed link's token: anyone may call it, the token is the check
 * (one-time, stored hashed). It ends the account's sign-in lock and its back-off, not the lock
 * on the address the guesses came from.
 */
export async function unlockRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const counters = new AuthCounters(db);
  route(app, accountLifecycleEndpoints.unlockSignIn, async ({ body }) => {
    const email = await consumeUnlockToken(db, body.token);
    if (!email) throw new HttpError(400, "invalidRequest", UNLOCK_LINK_INVALID);
    await counters.clear(passwordAccountKey(email));
    return undefined;
  });
}

// Pledge linking (issue 13 item 8): a member links a pledge platform account (Patreon first) and
// an active pledge there grants the tier it maps to. The composition root installs it.
import type { FastifyInstance } from "fastify";
import { PatreonPlatform } from "../../adapters/patreon.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Auth } from "../accounts/index.ts";
import { pledgeRoutes } from "./routes.ts";

export { pledgeTierOf } from "./queries.ts";

import { type LinkablePlatform, PledgeService } from "./service.ts";

/** The platforms the configuration names; none when no client is configured. */
export function linkablePlatforms(config: Config): LinkablePlatform[] {
  const patreon = config.pledges.patreon;
  return patreon
    ? [
        {
          platform: new PatreonPlatform({
            clientId: patreon.clientId,
            clientSecret: patreon.clientSecret,
            baseUrl: patreon.baseUrl,
          }),
          tiers: patreon.tiers,
        },
      ]
    : [];
}

export async function installPledges(
  app: FastifyInstance,
  deps: { config: Config; db: Db; auth: Auth },
): Promise<void> {
  const pledges = new PledgeService({
    db: deps.db,
    secret: deps.config.secret,
    platforms: linkablePlatforms(deps.config),
    log: app.log,
  });
  await app.register(pledgeRoutes, { config: deps.config, auth: deps.auth, pledges });
}

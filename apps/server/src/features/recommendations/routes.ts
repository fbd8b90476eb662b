import { RECOMMENDATION_COUNT, recommendationEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { route } from "../../http/route.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { type Auth, assertNotRestricted, getViewer } from "../accounts/index.ts";
import { allowNsfw, findCardRows, toCard } from "../characters/index.ts";
import { recommend } from "./queries.ts";

/**
 * Recommended Bots (chat-and-characters §2, §7, §9): open to everyone (accounts-billing-admin
 * §2.1 lists an open entry), refused only to restricted accounts. Computed per request by one
 * ranked query (queries.ts); the client caches the answer briefly (§3 local storage).
 */
export async function recommendationRoutes(
  app: FastifyInstance,
  deps: { db: Db; auth: Auth; storage: FileStorage; config: Pick<Config, "edition"> },
) {
  const { db, storage } = deps;
  route(app, recommendationEndpoints.list, async ({ req, query }) => {
    const viewer = await getViewer(deps.auth, req);
    assertNotRestricted(viewer);
    const { rows, personalized } = await recommend(db, {
      userId: viewer?.id ?? null,
      // The edition decides as for every list (family: never; partner: always).
      nsfw: allowNsfw(deps.config, query.nsfw),
      tags: query.tags,
      limit: RECOMMENDATION_COUNT,
    });
    const cards = new Map(
      (
        await findCardRows(
          db,
          rows.map((r) => r.id),
        )
      ).map((r) => [r.character.id, r]),
    );
    return {
      characters: rows.flatMap((r) => {
        const card = cards.get(r.id);
        return card ? [toCard(card, storage)] : [];
      }),
      personalized,
      generated_at: new Date().toISOString(),
    };
  });
}

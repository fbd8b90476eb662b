import { type CharacterPage, characterEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { assertNotRestricted, findCreatorByUsername, getViewer } from "../accounts/index.ts";
import {
  browseCharacters,
  type CardPage,
  listCreatorCharacters,
  listFavorites,
  listOwnCharacters,
  popularTags,
} from "./list-queries.ts";
import {
  assertCanFavorite,
  assertCanKeepFavorites,
  assertCanListOwn,
  favoritesSeeEveryBot,
} from "./policy.ts";
import { toCard } from "./present.ts";
import { addFavorite, removeFavorite } from "./queries.ts";
import { allowNsfw, type CharactersRouteDeps, guardedRoute, loadCharacter } from "./route-context.ts";

/** Browse, My Chatbots, favorites, creator pages and tag chips. */
export async function listRoutes(app: FastifyInstance, deps: CharactersRouteDeps) {
  const { db, storage, config } = deps;
  const toPage = (p: CardPage): CharacterPage => ({
    characters: p.rows.map((r) => toCard(r, storage)),
    next_cursor: p.nextCursor,
  });
  const viewerOf = (req: FastifyRequest) => getViewer(deps.auth, req);
  // Each list checks the viewer before its query is read (guardedRoute).
  /** Lists are open to everyone, signed in or not, except restricted accounts. */
  const anyone = async (req: FastifyRequest) => assertNotRestricted(await viewerOf(req));
  const owner = async (req: FastifyRequest) => assertCanListOwn(await viewerOf(req));
  const member = async (req: FastifyRequest) => assertCanKeepFavorites(await viewerOf(req));

  // A member's blocked creators' bots are left out of browse, search and the tag counts (issue 11).
  await guardedRoute(app, characterEndpoints.browse, anyone, async ({ req, query: q }) => {
    const viewer = await viewerOf(req);
    return toPage(
      await browseCharacters(db, { ...q, nsfw: allowNsfw(config, q.nsfw), viewerId: viewer?.id }),
    );
  });

  await guardedRoute(app, characterEndpoints.tags, anyone, async ({ req, query: q }) => {
    const viewer = await viewerOf(req);
    return {
      tags: await popularTags(db, {
        limit: q.limit,
        nsfw: allowNsfw(config, q.nsfw),
        viewerId: viewer?.id,
      }),
    };
  });

  await guardedRoute(app, characterEndpoints.mine, owner, async ({ req, query }) => {
    const viewer = await owner(req);
    return toPage(await listOwnCharacters(db, viewer.id, query));
  });

  await guardedRoute(app, characterEndpoints.favorites, member, async ({ req, query }) => {
    const viewer = await member(req);
    return toPage(
      await listFavorites(db, { id: viewer.id, seesEveryBot: favoritesSeeEveryBot(viewer) }, query),
    );
  });

  route(app, characterEndpoints.favorite, async ({ req }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    const fan = assertCanFavorite(viewer, found.character);
    return { is_favorite: true, num_favorites: await addFavorite(db, fan.id, found.character.id) };
  });

  route(app, characterEndpoints.unfavorite, async ({ req }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    const fan = assertCanFavorite(viewer, found.character);
    return { is_favorite: false, num_favorites: await removeFavorite(db, fan.id, found.character.id) };
  });

  await guardedRoute(app, characterEndpoints.creator, anyone, async ({ req, params, query }) => {
    const creator = await findCreatorByUsername(db, params.username);
    if (!creator) throw notFound("There is no creator with this name.");
    const viewer = await viewerOf(req);
    const rows = await listCreatorCharacters(db, creator.id, allowNsfw(config, query.nsfw), viewer?.id);
    return {
      creator: { id: creator.id, username: creator.username, name: creator.name, avatar_url: creator.image },
      characters: rows.map((r) => toCard(r, storage)),
    };
  });
}

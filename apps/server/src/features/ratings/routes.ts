import {
  type AppEvent,
  type AppEventName,
  applyTagChange,
  MAX_TAGS,
  ratingEndpoints,
  type TagSuggestion,
  tagSuggestionMessages,
} from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { CommunityDeps } from "../../community-deps.ts";
import { HttpError, notFound, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { assertNotRestricted, getViewer, type Viewer } from "../accounts/index.ts";
import { invalidAccess } from "../characters/index.ts";
import {
  assertCanAcceptSuggestion,
  assertCanRate,
  assertCanReviewSuggestions,
  assertCanSeeRatings,
  assertCanSuggestTags,
  mayRate,
} from "./policy.ts";
import {
  deletePendingSuggestion,
  findRating,
  findSuggestion,
  pendingSuggestions,
  ratingFigures,
  replacePendingSuggestion,
  type SuggestionWithAuthor,
  saveRating,
  settleSuggestion,
} from "./queries.ts";

type EventOf<N extends AppEventName> = Extract<AppEvent, { event_name: N }>;
/** The kinds another feature handles (the ads feature's ad view, ad click and chat-UI events). */
export type OtherEventName = "adView" | "adClick" | "chatUi";
type OwnEventName = Exclude<AppEventName, OtherEventName>;
/** One handler per event kind: the union in the contract and this table are the whole dispatch. */
type EventHandlers = { [N in OwnEventName]: (viewer: Viewer | null, event: EventOf<N>) => Promise<void> };
export type OtherEvents = (viewer: Viewer | null, event: EventOf<OtherEventName>) => Promise<void>;
const isOther = (event: AppEvent): event is EventOf<OtherEventName> =>
  event.event_name === "adView" || event.event_name === "adClick" || event.event_name === "chatUi";

function presentSuggestion(s: SuggestionWithAuthor, tags: string[]): TagSuggestion {
  const row = s.suggestion;
  const result = applyTagChange(tags, row.tagsToAdd, row.tagsToRemove);
  return {
    id: row.id,
    character_id: row.characterId,
    username: s.username,
    tags_to_add: row.tagsToAdd,
    tags_to_remove: row.tagsToRemove,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    result_tags: result,
    fits: result.length <= MAX_TAGS,
  };
}

const alreadyDecided = () =>
  new HttpError(409, "conflict", "This suggestion was already accepted or dismissed.");

const tooManyTags = () =>
  new HttpError(400, "invalidRequest", tagSuggestionMessages.tooMany, [
    { path: "tags_to_add", message: tagSuggestionMessages.tooMany },
  ]);

/**
 * Chatbot ratings and tag suggestions (chat-and-characters §3-§7): `POST /api/event` and the
 * creator's review of pending suggestions.
 */
export async function ratingRoutes(app: FastifyInstance, deps: CommunityDeps & { otherEvents: OtherEvents }) {
  const { db, auth, characters } = deps;
  // A restricted account is refused everything here before its input is read (403 restricted).
  app.addHook("preHandler", async (req) => {
    assertNotRestricted(await getViewer(auth, req));
  });

  const handlers: EventHandlers = {
    async characterRating(viewer, event) {
      const found = await characters.find(event.character_id, viewer?.id ?? null);
      const v = assertCanRate(viewer, found?.character ?? null);
      await saveRating(db, {
        userId: v.id,
        characterId: event.character_id,
        rating: event.rating,
        conversationLength: event.conversation_length,
      });
    },

    async characterSuggestTags(viewer, event) {
      const found = await characters.find(event.character_id, viewer?.id ?? null);
      const v = assertCanSuggestTags(viewer, found?.character ?? null);
      if (!found) throw invalidAccess();
      // Both lists empty is the spec's discard: the member's pending suggestion goes.
      if (event.tags_to_add.length === 0 && event.tags_to_remove.length === 0) {
        await deletePendingSuggestion(db, v.id, event.character_id);
        return;
      }
      const tags = found.character.tags;
      // Only real changes are kept: adding a tag it has, or removing one it lacks, is nothing.
      const add = [...new Set(event.tags_to_add)].filter((t) => !tags.includes(t));
      const remove = [...new Set(event.tags_to_remove)].filter((t) => tags.includes(t) && !add.includes(t));
      if (add.length === 0 && remove.length === 0) {
        throw new HttpError(400, "invalidRequest", tagSuggestionMessages.empty);
      }
      if (applyTagChange(tags, add, remove).length > MAX_TAGS) throw tooManyTags();
      await replacePendingSuggestion(db, { userId: v.id, characterId: event.character_id, add, remove });
    },
  };

  route(app, ratingEndpoints.event, async ({ req, body }) => {
    const viewer = await getViewer(auth, req);
    if (isOther(body)) return deps.otherEvents(viewer, body);
    // Each handler gets the event of its own kind; the contract has told them apart already.
    const handle = handlers[body.event_name] as (v: Viewer | null, e: AppEvent) => Promise<void>;
    await handle(viewer, body);
  });

  route(app, ratingEndpoints.characterRating, async ({ req, params }) => {
    const viewer = await getViewer(auth, req);
    const found = await characters.find(params.id, viewer?.id ?? null);
    const bot = found?.character ?? null;
    assertCanSeeRatings(viewer, bot);
    const [figures, own] = await Promise.all([
      ratingFigures(db, bot.id),
      viewer && !viewer.isGuest ? findRating(db, viewer.id, bot.id) : null,
    ]);
    return {
      character_id: bot.id,
      rating_score: figures.ratingScore,
      ratings: figures.ratings,
      rating: (own?.rating ?? null) as 1 | 3 | 5 | null,
      can_rate: mayRate(viewer, bot),
    };
  });

  route(app, ratingEndpoints.tagSuggestions, async ({ req, params }) => {
    const viewer = await getViewer(auth, req);
    const found = await characters.find(params.id, viewer?.id ?? null);
    assertCanReviewSuggestions(viewer, found?.character ?? null);
    if (!found) throw invalidAccess();
    const tags = found.character.tags;
    const pending = await pendingSuggestions(db, params.id);
    return { tags, suggestions: pending.map((s) => presentSuggestion(s, tags)) };
  });

  route(app, ratingEndpoints.decideTagSuggestion, async ({ req, params, body }) => {
    const viewer = await getViewer(auth, req);
    const suggestion = await findSuggestion(db, params.id);
    if (!viewer) throw unauthorized();
    if (!suggestion) throw notFound("No such tag suggestion.");
    const found = await characters.find(suggestion.suggestion.characterId, viewer.id);
    assertCanReviewSuggestions(viewer, found?.character ?? null);
    if (!found) throw invalidAccess();
    if (suggestion.suggestion.status !== "pending") throw alreadyDecided();
    let tags = found.character.tags;
    if (body.status === "accepted") {
      const editor = assertCanAcceptSuggestion(viewer, found.character);
      const next = applyTagChange(tags, suggestion.suggestion.tagsToAdd, suggestion.suggestion.tagsToRemove);
      if (next.length > MAX_TAGS) throw tooManyTags();
      tags = (await characters.update(editor, found.character, { tags: next })).tags;
    }
    const settled = await settleSuggestion(db, params.id, body.status);
    if (!settled) throw alreadyDecided();
    return {
      suggestion: presentSuggestion({ suggestion: settled, username: suggestion.username }, tags),
      tags,
    };
  });
}

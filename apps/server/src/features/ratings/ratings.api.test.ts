import {
  type ApiError,
  type Character,
  type CharacterRatingSummary,
  type ConversationCreated,
  type Message,
  type MessagePage,
  type TagSuggestionList,
  tagSuggestionMessages,
} from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { characters } from "../characters/schema.ts";
import { api, type Person, personAs } from "../characters/test-support.ts";
import { messages } from "../chats/schema.ts";
import { characterRatings, tagSuggestions } from "./schema.ts";

/** Message ratings, chatbot ratings and their rating_score, tag suggestions: every role. */
describe.each(drivers)("ratings on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person;
  let free: Person;
  let subscriber: Person;
  let admin: Person;
  let guest: Person;
  let restricted: Person;
  let limited: Person;
  let signedOut: Person;
  let bot: Character;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } });
    a = api(h);
    [creator, free, subscriber, admin, guest, restricted, limited, signedOut] = await Promise.all([
      personAs(h, "free", "Creator"),
      personAs(h, "free"),
      personAs(h, "basic"),
      personAs(h, "admin"),
      personAs(h, "guest"),
      personAs(h, "restricted"),
      personAs(h, "limited"),
      personAs(h, "signed out"),
    ]);
    bot = await a.create(creator, { name: "Rated", greeting: "Hello there", visibility: "public" });
  });
  afterAll(async () => {
    await h.stop();
  });

  const err = (res: { json: <T>() => T }) => res.json<ApiError>();
  const event = (who: Person, body: Record<string, unknown>) => a.post("/api/event", body, who);
  const rate = (who: Person, characterId: string, rating: number) =>
    event(who, { event_name: "characterRating", character_id: characterId, rating, conversation_length: 4 });
  const suggest = (who: Person, characterId: string, add: string[], remove: string[] = []) =>
    event(who, {
      event_name: "characterSuggestTags",
      character_id: characterId,
      tags_to_add: add,
      tags_to_remove: remove,
    });
  const summary = async (who: Person, id: string) => {
    const res = await a.get(`/api/characters/${id}/rating`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CharacterRatingSummary>();
  };

  describe("message rating", () => {
    /** A chat with the bot: its greeting is the first (bot) message. */
    const openChat = async (who: Person) => {
      const res = await a.post("/api/conversations", { character_id: bot.id }, who);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<ConversationCreated>();
    };

    it("the chat's owner rates a bot message once; it shows in the message list", async () => {
      const chat = await openChat(free);
      const greeting = chat.messages[0] as Message;
      expect(greeting.role).toBe("bot");
      const res = await a.put(
        `/api/messages/${greeting.id}/rating`,
        { rating: 2, reason: "Repetitive", expected: "A question back" },
        free,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Message>().rating).toBe(2);
      const [row] = await h.database.db.select().from(messages).where(eq(messages.id, greeting.id));
      expect(row).toMatchObject({ rating: 2, ratingReason: "Repetitive", ratingExpected: "A question back" });

      const again = await a.put(`/api/messages/${greeting.id}/rating`, { rating: 4 }, free);
      expect(again.statusCode).toBe(409);
      expect(err(again).code).toBe("conflict");
      const page = await a.get(`/api/conversations/${chat.conversation.id}/messages`, free);
      expect(page.json<MessagePage>().messages.find((m) => m.id === greeting.id)?.rating).toBe(2);
    });

    it("a positive rating keeps no expected response; a reason from the wrong set is refused", async () => {
      const chat = await openChat(subscriber);
      const id = chat.messages[0]?.id as string;
      const wrong = await a.put(
        `/api/messages/${id}/rating`,
        { rating: 4, reason: "Repetitive" },
        subscriber,
      );
      expect(wrong.statusCode).toBe(400);
      const ok = await a.put(
        `/api/messages/${id}/rating`,
        { rating: 4, reason: "Creative", expected: "x" },
        subscriber,
      );
      expect(ok.statusCode, ok.body).toBe(200);
      const [row] = await h.database.db.select().from(messages).where(eq(messages.id, id));
      expect(row).toMatchObject({ rating: 4, ratingReason: "Creative", ratingExpected: null });
    });

    it("guests rate in their own chats; others, signed-out and restricted callers are refused", async () => {
      const chat = await openChat(guest);
      const id = chat.messages[0]?.id as string;
      for (const [who, status, code] of [
        [signedOut, 401, "unauthorized"],
        [restricted, 403, "restricted"],
        [admin, 404, "notFound"],
        [free, 404, "notFound"],
      ] as const) {
        const res = await a.put(`/api/messages/${id}/rating`, { rating: 3 }, who);
        expect([who.role, res.statusCode, err(res).code]).toEqual([who.role, status, code]);
      }
      const res = await a.put(`/api/messages/${id}/rating`, { rating: 3, reason: "Engaging" }, guest);
      expect(res.statusCode, res.body).toBe(200);
    });

    it("only bot messages are rated, 1 to 4", async () => {
      const chat = await openChat(admin);
      const id = chat.messages[0]?.id as string;
      expect((await a.put(`/api/messages/${id}/rating`, { rating: 5 }, admin)).statusCode).toBe(400);
      expect((await a.put(`/api/messages/${id}/rating`, { rating: 0 }, admin)).statusCode).toBe(400);
      // A user message: written straight into the chat, as sending one would.
      const [own] = await h.database.db
        .update(messages)
        .set({ role: "user" })
        .where(eq(messages.id, id))
        .returning();
      expect(own?.role).toBe("user");
      const res = await a.put(`/api/messages/${id}/rating`, { rating: 3 }, admin);
      expect(res.statusCode).toBe(400);
      expect(err(res).message).toMatch(/bot/);
    });
  });

  describe("chatbot rating", () => {
    it("is for signed-in members on public bots other than their own", async () => {
      const privateBot = await a.create(creator, { name: "Secret", visibility: "private" });
      const hiddenBot = await a.create(creator, { name: "Unlisted", visibility: "hidden" });
      const cases: [Person, string, number, string][] = [
        [signedOut, bot.id, 401, "unauthorized"],
        [guest, bot.id, 403, "forbidden"],
        [restricted, bot.id, 403, "restricted"],
        [creator, bot.id, 403, "forbidden"],
        [free, privateBot.id, 404, "invalidAccess"],
        [free, hiddenBot.id, 403, "forbidden"],
      ];
      for (const [who, id, status, code] of cases) {
        const res = await rate(who, id, 5);
        expect([who.role, id, res.statusCode, err(res).code]).toEqual([who.role, id, status, code]);
      }
      expect(await h.database.db.select().from(characterRatings)).toHaveLength(0);
      expect((await summary(guest, bot.id)).can_rate).toBe(false);
      expect((await summary(creator, bot.id)).can_rate).toBe(false);
      expect((await summary(free, bot.id)).can_rate).toBe(true);
      expect((await a.get(`/api/characters/${privateBot.id}/rating`, free)).statusCode).toBe(404);
      expect((await a.get(`/api/characters/${bot.id}/rating`, restricted)).statusCode).toBe(403);
    });

    it("rating_score is the share of like and love; re-rating replaces; scores -1 / 0.5 / 1", async () => {
      expect((await summary(signedOut, bot.id)).rating_score).toBeNull();
      expect((await rate(free, bot.id, 1)).statusCode).toBe(204);
      expect((await rate(subscriber, bot.id, 5)).statusCode).toBe(204);
      expect((await rate(admin, bot.id, 3)).statusCode).toBe(204);
      // A limited account keeps chatting, and rating is part of that.
      expect((await rate(limited, bot.id, 1)).statusCode).toBe(204);

      let s = await summary(free, bot.id);
      expect(s).toMatchObject({ ratings: 4, rating: 1, can_rate: true });
      expect(s.rating_score).toBeCloseTo(2 / 4);
      const scores = await h.database.db
        .select({
          rating: characterRatings.rating,
          score: characterRatings.score,
          length: characterRatings.conversationLength,
        })
        .from(characterRatings)
        .where(eq(characterRatings.characterId, bot.id));
      expect(scores.map((r) => [r.rating, r.score, r.length]).sort()).toEqual(
        [
          [1, -1, 4],
          [1, -1, 4],
          [3, 0.5, 4],
          [5, 1, 4],
        ].sort(),
      );

      expect((await rate(free, bot.id, 5)).statusCode).toBe(204);
      s = await summary(free, bot.id);
      expect(s).toMatchObject({ ratings: 4, rating: 5 });
      expect(s.rating_score).toBeCloseTo(3 / 4);
      // The character's own rating_score (cards, profile, browse by rating) is the same figure.
      const profile = await a.get(`/api/characters/${bot.id}`, signedOut);
      expect(profile.json<Character>().rating_score).toBeCloseTo(3 / 4);
      expect((await summary(signedOut, bot.id)).rating).toBeNull();
    });

    it("refuses values other than 1, 3 and 5 and unknown events", async () => {
      expect((await rate(free, bot.id, 4)).statusCode).toBe(400);
      const unknown = await event(free, { event_name: "somethingElse", character_id: bot.id });
      expect(unknown.statusCode).toBe(400);
    });
  });

  describe("tag suggestions", () => {
    const ELEVEN = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11"];
    let tagged: Character;
    beforeAll(async () => {
      tagged = await a.create(creator, { name: "Tagged", visibility: "public", tags: ELEVEN });
    });
    const pending = async (who: Person, id = tagged.id) => {
      const res = await a.get(`/api/characters/${id}/tag-suggestions`, who);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TagSuggestionList>();
    };

    it("who may suggest", async () => {
      const privateBot = await a.create(creator, { name: "Closed", visibility: "private" });
      const cases: [Person, string, number, string][] = [
        [signedOut, tagged.id, 401, "unauthorized"],
        [guest, tagged.id, 403, "forbidden"],
        [restricted, tagged.id, 403, "restricted"],
        [limited, tagged.id, 403, "forbidden"],
        [creator, tagged.id, 400, "invalidRequest"],
        [free, privateBot.id, 404, "invalidAccess"],
      ];
      for (const [who, id, status, code] of cases) {
        const res = await suggest(who, id, ["cozy"]);
        expect([who.role, res.statusCode, err(res).code]).toEqual([who.role, status, code]);
      }
      expect(await h.database.db.select().from(tagSuggestions)).toHaveLength(0);
    });

    it("at most 12 tags after applying, something to change, and a newer one replaces the pending one", async () => {
      const tooMany = await suggest(free, tagged.id, ["cozy", "slow burn"]);
      expect(tooMany.statusCode).toBe(400);
      expect(err(tooMany).message).toBe(tagSuggestionMessages.tooMany);
      // Removing one makes room for two.
      expect((await suggest(free, tagged.id, ["cozy", "slow burn"], ["a1"])).statusCode).toBe(204);
      const nothing = await suggest(free, tagged.id, ["a2"], ["not-there"]);
      expect(nothing.statusCode).toBe(400);
      expect(err(nothing).message).toBe(tagSuggestionMessages.empty);

      expect((await suggest(free, tagged.id, ["Cozy"])).statusCode).toBe(204);
      const list = await pending(creator);
      expect(list.suggestions).toHaveLength(1);
      expect(list.suggestions[0]).toMatchObject({ tags_to_add: ["cozy"], tags_to_remove: [], fits: true });
      expect(list.suggestions[0]?.result_tags).toEqual([...ELEVEN, "cozy"]);
    });

    it("empty lists discard the member's pending suggestion", async () => {
      expect((await suggest(subscriber, tagged.id, ["spooky"])).statusCode).toBe(204);
      expect((await pending(creator)).suggestions.map((s) => s.tags_to_add)).toContainEqual(["spooky"]);
      expect((await suggest(subscriber, tagged.id, [], [])).statusCode).toBe(204);
      expect((await pending(creator)).suggestions.map((s) => s.tags_to_add)).not.toContainEqual(["spooky"]);
    });

    it("only the creator and admins read them", async () => {
      expect((await pending(admin)).suggestions.length).toBeGreaterThan(0);
      for (const [who, status] of [
        [signedOut, 401],
        [guest, 403],
        [free, 403],
        [subscriber, 403],
        [restricted, 403],
      ] as const) {
        const res = await a.get(`/api/characters/${tagged.id}/tag-suggestions`, who);
        expect([who.role, res.statusCode]).toEqual([who.role, status]);
      }
    });

    it("accepting applies the change (12 at most), dismissing leaves the tags; each only once", async () => {
      await suggest(admin, tagged.id, ["gothic"]);
      const list = await pending(creator);
      const cozy = list.suggestions.find((s) => s.tags_to_add.includes("cozy"));
      const gothic = list.suggestions.find((s) => s.tags_to_add.includes("gothic"));
      if (!cozy || !gothic) throw new Error("suggestions missing");

      const other = await a.put(`/api/tag-suggestions/${cozy.id}`, { status: "accepted" }, free);
      expect(other.statusCode).toBe(403);
      const accepted = await a.put(`/api/tag-suggestions/${cozy.id}`, { status: "accepted" }, creator);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json<{ tags: string[] }>().tags).toEqual([...ELEVEN, "cozy"]);
      const twice = await a.put(`/api/tag-suggestions/${cozy.id}`, { status: "dismissed" }, creator);
      expect(twice.statusCode).toBe(409);

      // Now at 12: "gothic" no longer fits.
      expect((await pending(creator)).suggestions.find((s) => s.id === gothic.id)?.fits).toBe(false);
      const full = await a.put(`/api/tag-suggestions/${gothic.id}`, { status: "accepted" }, creator);
      expect(full.statusCode).toBe(400);
      expect(err(full).message).toBe(tagSuggestionMessages.tooMany);
      const dismissed = await a.put(`/api/tag-suggestions/${gothic.id}`, { status: "dismissed" }, admin);
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect((await a.get(`/api/characters/${tagged.id}`, creator)).json<Character>().tags).toEqual([
        ...ELEVEN,
        "cozy",
      ]);
      expect((await pending(creator)).suggestions).toHaveLength(0);
    });

    it("a bot waiting for review cannot take a suggestion (dismissing still works)", async () => {
      const waiting = await a.create(creator, { name: "Waiting", visibility: "public", tags: ["calm"] });
      await suggest(free, waiting.id, ["storm"]);
      await h.database.db
        .update(characters)
        .set({ moderationStatus: "pending" })
        .where(eq(characters.id, waiting.id));
      const [s] = (await pending(creator, waiting.id)).suggestions;
      if (!s) throw new Error("no suggestion");
      const res = await a.put(`/api/tag-suggestions/${s.id}`, { status: "accepted" }, creator);
      expect(res.statusCode).toBe(409);
      const gone = await a.put(`/api/tag-suggestions/${s.id}`, { status: "dismissed" }, creator);
      expect(gone.statusCode).toBe(200);
    });
  });
});

import type { Character, ConversationCreated, Persona } from "@hearth/contract";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { FILES_ROUTE_PREFIX } from "../../ports/storage.ts";
import { blockedCreators } from "../blocking/schema.ts";
import { characters, favorites } from "../characters/schema.ts";
import { api, type Person, personAs, type Role, testImage } from "../characters/test-support.ts";
import { conversations } from "../chats/schema.ts";
import { personas } from "../personas/schema.ts";
import { characterRatings } from "../ratings/schema.ts";
import { DELETED_CREATOR_ACCOUNT } from "./deletion-queries.ts";
import { sessions, users } from "./schema.ts";

/** DELETE /api/users (accounts-billing-admin §2.2, §7): everything owned goes, others' data stays, files too. */
describe.each(drivers)("account deletion on %s", (driver) => {
  for (const policy of ["delete", "keep"] as const) {
    describe(`with HEARTH_DELETED_CREATOR_BOTS=${policy}`, () => {
      let h: TestHearth;
      let a: ReturnType<typeof api>;
      beforeAll(async () => {
        h = await startTestHearth({ driver, env: { HEARTH_DELETED_CREATOR_BOTS: policy } });
        a = api(h);
      });
      afterAll(async () => {
        await h.stop();
      });

      const db = () => h.database.db;
      const fileKey = (url: string | null) => (url ?? "").slice(FILES_ROUTE_PREFIX.length);
      const exists = async (key: string) => (await h.storage.get(key)) !== null;
      const botWithAvatar = async (who: Person, visibility: "public" | "private") => {
        const bot = await a.create(who, { name: `Bot ${visibility}`, visibility });
        const res = await a.upload(`/api/characters/${bot.id}/avatar`, who, await testImage("png"));
        expect(res.statusCode, res.body).toBe(200);
        return res.json<Character>();
      };
      const chat = async (who: Person, bot: Character) => {
        const res = await a.post("/api/conversations", { character_id: bot.id }, who);
        expect(res.statusCode, res.body).toBe(201);
        return res.json<ConversationCreated>().conversation.id;
      };

      it("removes the account and everything it owns, keeps others' data, and removes its files", async () => {
        const leaving = await personAs(h, "premium");
        const other = await personAs(h, "free");
        const leavingId = leaving.id ?? "";
        const othersBot = await botWithAvatar(other, "public");
        const sharedBot = await botWithAvatar(leaving, "public");
        const privateBot = await botWithAvatar(leaving, "private");
        const persona = (await a.post("/api/personas", { name: "Masked" }, leaving)).json<Persona>();
        const personaRes = await a.upload(
          `/api/personas/${persona.id}/avatar`,
          leaving,
          await testImage("png"),
        );
        expect(personaRes.statusCode, personaRes.body).toBe(200);
        const personaKey = fileKey(personaRes.json<Persona>().avatar_url);
        // The member's own uploaded avatar: stored under a prefix on the users row.
        await h.storage.put("avatars/profile-test/abc-512.webp", Buffer.from("x"), "image/webp");
        await h.storage.put("avatars/profile-test/abc-128.webp", Buffer.from("x"), "image/webp");
        await db()
          .update(users)
          .set({ avatarKey: "avatars/profile-test/abc" })
          .where(eq(users.id, leavingId));

        const ownChat = await chat(leaving, othersBot);
        const othersChatWithShared = await chat(other, sharedBot);
        const othersOwnChat = await chat(other, othersBot);
        expect((await a.post(`/api/characters/${othersBot.id}/favorite`, {}, leaving)).statusCode).toBe(200);
        expect((await a.post(`/api/characters/${sharedBot.id}/favorite`, {}, other)).statusCode).toBe(200);
        expect((await a.post("/api/users/blocked-creators", { creator: other.id }, leaving)).statusCode).toBe(
          200,
        );
        await db()
          .insert(characterRatings)
          .values({ userId: leavingId, characterId: othersBot.id, rating: 1, score: 1 });

        const res = await a.delete("/api/users", leaving);
        expect(res.statusCode, res.body).toBe(204);

        expect(await db().select().from(users).where(eq(users.id, leavingId))).toEqual([]);
        expect(await db().select().from(sessions).where(eq(sessions.userId, leavingId))).toEqual([]);
        expect((await a.get("/api/me", leaving)).statusCode).toBe(401);
        expect(await db().select().from(personas).where(eq(personas.userId, leavingId))).toEqual([]);
        expect(await db().select().from(conversations).where(eq(conversations.id, ownChat))).toEqual([]);
        expect(await db().select().from(favorites).where(eq(favorites.userId, leavingId))).toEqual([]);
        expect(
          await db().select().from(characterRatings).where(eq(characterRatings.userId, leavingId)),
        ).toEqual([]);
        expect(
          await db().select().from(blockedCreators).where(eq(blockedCreators.userId, leavingId)),
        ).toEqual([]);
        expect(await exists(personaKey)).toBe(false);
        expect(await exists("avatars/profile-test/abc-512.webp")).toBe(false);
        expect(await exists("avatars/profile-test/abc-128.webp")).toBe(false);
        expect(await db().select().from(characters).where(eq(characters.id, privateBot.id))).toEqual([]);
        expect(await exists(fileKey(privateBot.avatar_url))).toBe(false);

        // The other member's own bot, chat and account are untouched.
        expect((await a.get("/api/me", other)).statusCode).toBe(200);
        expect(await exists(fileKey(othersBot.avatar_url))).toBe(true);
        expect(
          await db().select().from(conversations).where(eq(conversations.id, othersOwnChat)),
        ).toHaveLength(1);

        const [shared] = await db().select().from(characters).where(eq(characters.id, sharedBot.id));
        const othersChat = await db()
          .select()
          .from(conversations)
          .where(eq(conversations.id, othersChatWithShared));
        if (policy === "delete") {
          expect(shared).toBeUndefined();
          expect(othersChat).toEqual([]);
          expect(await exists(fileKey(sharedBot.avatar_url))).toBe(false);
        } else {
          const [owner] = await db()
            .select()
            .from(users)
            .where(eq(users.systemAccount, DELETED_CREATOR_ACCOUNT));
          expect(shared?.creatorUserId).toBe(owner?.id);
          expect(othersChat).toHaveLength(1);
          expect(await exists(fileKey(sharedBot.avatar_url))).toBe(true);
          expect(
            await db()
              .select()
              .from(favorites)
              .where(eq(favorites.userId, other.id ?? "")),
          ).toHaveLength(1);
        }
      });

      it("deletes a creator while a member holds the username deleted_user, which stays theirs", async () => {
        // A member who took the name before it was reserved (set directly: it can't be chosen now).
        const holder = await personAs(h, "free");
        await db()
          .update(users)
          .set({ username: "deleted_user" })
          .where(eq(users.id, holder.id ?? ""));
        const creators = [await personAs(h, "free"), await personAs(h, "free")];
        const bots = [];
        for (const creator of creators) {
          const bot = await a.create(creator, { name: "Shared bot", visibility: "public" });
          bots.push(bot);
          const res = await a.delete("/api/users", creator);
          expect(res.statusCode, res.body).toBe(204);
        }

        const [holderRow] = await db()
          .select()
          .from(users)
          .where(eq(users.id, holder.id ?? ""));
        expect(holderRow?.username).toBe("deleted_user");
        expect(holderRow?.systemAccount).toBeNull();
        expect((await a.get("/api/me", holder)).statusCode).toBe(200);
        const owners = await db()
          .select({ owner: characters.creatorUserId })
          .from(characters)
          .where(
            inArray(
              characters.id,
              bots.map((b) => b.id),
            ),
          );
        const placeholders = await db()
          .select()
          .from(users)
          .where(eq(users.systemAccount, DELETED_CREATOR_ACCOUNT));
        if (policy === "delete") {
          expect(owners).toEqual([]);
        } else {
          // Both creators' bots went to the one placeholder, which no member owns.
          expect(placeholders).toHaveLength(1);
          expect(placeholders[0]?.id).not.toBe(holder.id);
          expect(owners).toEqual([{ owner: placeholders[0]?.id }, { owner: placeholders[0]?.id }]);
        }
      });

      it("recomputes the rating score of the bots the deleted account rated", async () => {
        const creator = await personAs(h, "free");
        const leaving = await personAs(h, "free");
        const staying = await personAs(h, "free");
        const bot = await a.create(creator, { name: "Rated bot", visibility: "public" });
        const rate = (who: Person, rating: number) =>
          a.post(
            "/api/event",
            { event_name: "characterRating", character_id: bot.id, rating, conversation_length: 4 },
            who,
          );
        expect((await rate(leaving, 5)).statusCode).toBe(204);
        expect((await rate(staying, 1)).statusCode).toBe(204);
        const score = async () =>
          (await db().select().from(characters).where(eq(characters.id, bot.id)))[0]?.ratingScore;
        expect(await score()).toBeCloseTo(0.5);

        expect((await a.delete("/api/users", leaving)).statusCode).toBe(204);
        expect(await score()).toBe(0);
      });

      it("refuses the last administrator (409) and lets one of two leave", async () => {
        const admins = await db().select({ id: users.id }).from(users).where(eq(users.isAdmin, true));
        await db()
          .update(users)
          .set({ isAdmin: false })
          .where(
            inArray(
              users.id,
              admins.map((x) => x.id),
            ),
          );
        const first = await personAs(h, "admin");
        const refused = await a.delete("/api/users", first);
        expect(refused.statusCode).toBe(409);
        expect(
          await db()
            .select()
            .from(users)
            .where(eq(users.id, first.id ?? "")),
        ).toHaveLength(1);
        const second = await personAs(h, "admin");
        expect((await a.delete("/api/users", first)).statusCode).toBe(204);
        expect((await a.delete("/api/users", second)).statusCode).toBe(409);
      });

      it.each<[Role, number]>([
        ["signed out", 401],
        ["guest", 204],
        ["free", 204],
        ["minimal", 204],
        ["basic", 204],
        ["premium", 204],
        ["limited", 204],
        ["restricted", 204],
      ])("answers %s with %i", async (role, status) => {
        const who = await personAs(h, role);
        const res = await a.delete("/api/users", who);
        expect(res.statusCode, res.body).toBe(status);
        const left = who.id ? await db().select().from(users).where(eq(users.id, who.id)) : [];
        expect(left).toHaveLength(status === 204 ? 0 : who.id ? 1 : 0);
      });

      it("deletes only the caller: another member's session and account stay", async () => {
        const one = await personAs(h, "free");
        const two = await personAs(h, "free");
        await updateUser(db(), two.id ?? "", { role: "basic" });
        expect((await a.delete("/api/users", one)).statusCode).toBe(204);
        expect((await a.get("/api/me", two)).statusCode).toBe(200);
      });
    });
  }
});

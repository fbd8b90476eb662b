import { randomUUID } from "node:crypto";
import {
  type ApiError,
  BLOCKED_BOT_CREATOR_MESSAGE,
  type BlockedCreatorList,
  type BlockState,
  type CharacterPage,
  type CharacterTags,
  type ConversationCreated,
  type CreatorProfile,
} from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";

/** Blocked creators: the endpoints and their roles, and the block across browse, search, tags, creator pages and chat. */
describe.each(drivers)("blocking on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person;
  let creatorName: string;
  let other: Person;
  const bots: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } });
    a = api(h);
    creator = await personAs(h, "basic", "Cora");
    other = await personAs(h, "free", "Otto");
    creatorName = (await a.get("/api/me", creator)).json<{ username: string }>().username;
    for (const [name, who, tags] of [
      ["Glimmer Dragon", creator, ["fantasy", "glimmer"]],
      ["Glimmer Knight", other, ["fantasy"]],
    ] as const) {
      bots[name] = (await a.create(who, { name, visibility: "public", tags: [...tags] })).id;
    }
  });
  afterAll(async () => {
    await h.stop();
  });

  const err = (res: { json: <T>() => T }) => res.json<ApiError>();
  const block = (who: Person, creatorId: string | null) =>
    a.post("/api/users/blocked-creators", { creator: creatorId }, who);
  const unblock = (who: Person, creatorId: string) =>
    a.delete(`/api/users/blocked-creators/${creatorId}`, who);
  const blocked = async (who: Person) => {
    const res = await a.get("/api/users/blocked-creators", who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BlockedCreatorList>().creators;
  };
  const browseNames = async (who: Person, query = "") =>
    (await a.get(`/api/characters${query}`, who)).json<CharacterPage>().characters.map((c) => c.name);

  describe("who may block", () => {
    const refused: [Role, number, string][] = [
      ["signed out", 401, "unauthorized"],
      ["guest", 403, "forbidden"],
      ["restricted", 403, "restricted"],
    ];
    for (const [role, status, code] of refused) {
      it(`${role}: ${status} ${code} on every call, whatever the input`, async () => {
        const who = await personAs(h, role);
        for (const res of [
          await a.get("/api/users/blocked-creators", who),
          await block(who, creator.id),
          await a.post("/api/users/blocked-creators", { creator: "not-a-uuid" }, who),
          await unblock(who, randomUUID()),
        ]) {
          expect(res.statusCode, res.body).toBe(status);
          expect(err(res).code).toBe(code);
        }
      });
    }

    for (const role of ["free", "minimal", "basic", "premium", "admin", "limited"] as const) {
      it(`${role}: blocks, lists and unblocks`, async () => {
        const who = await personAs(h, role);
        expect(await blocked(who)).toEqual([]);
        const res = await block(who, creator.id);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<BlockState>()).toEqual({
          creator: { id: creator.id, username: creatorName, name: "Cora", avatar_url: null },
          blocked: true,
        });
        expect(await blocked(who)).toEqual([
          expect.objectContaining({ id: creator.id, username: creatorName, name: "Cora" }),
        ]);
        expect((await unblock(who, creator.id as string)).statusCode).toBe(204);
        expect(await blocked(who)).toEqual([]);
      });
    }

    it("refuses blocking oneself (400), an unknown or guest account (404) and a malformed id (400)", async () => {
      const self = await block(creator, creator.id);
      expect(self.statusCode).toBe(400);
      expect(err(self).message).toMatch(/yourself/);
      expect((await block(other, randomUUID())).statusCode).toBe(404);
      const guest = await personAs(h, "guest");
      expect((await block(other, guest.id)).statusCode).toBe(404);
      const bad = await block(other, "nobody");
      expect(bad.statusCode).toBe(400);
      expect(err(bad).code).toBe("invalidRequest");
      expect(await blocked(other)).toEqual([]);
    });

    it("is idempotent: blocking twice keeps one entry, unblocking someone not blocked is a no-op", async () => {
      const who = await personAs(h, "free");
      expect((await block(who, creator.id)).statusCode).toBe(200);
      expect((await block(who, creator.id)).statusCode).toBe(200);
      expect(await blocked(who)).toHaveLength(1);
      expect((await unblock(who, other.id as string)).statusCode).toBe(204);
      expect(await blocked(who)).toHaveLength(1);
      expect((await unblock(who, creator.id as string)).statusCode).toBe(204);
      expect((await unblock(who, creator.id as string)).statusCode).toBe(204);
      expect(await blocked(who)).toEqual([]);
    });

    it("lists one member's blocks only to them", async () => {
      const first = await personAs(h, "free");
      const second = await personAs(h, "premium");
      await block(first, creator.id);
      expect(await blocked(second)).toEqual([]);
      await unblock(second, creator.id as string);
      expect(await blocked(first)).toHaveLength(1);
    });
  });

  describe("a blocked creator's bots", () => {
    let member: Person;
    let conversationId: string;

    beforeAll(async () => {
      member = await personAs(h, "premium", "Mara");
      // A chat started before the block.
      const res = await a.post("/api/conversations", { character_id: bots["Glimmer Dragon"] }, member);
      expect(res.statusCode, res.body).toBe(201);
      conversationId = res.json<ConversationCreated>().conversation.id;
      expect((await block(member, creator.id)).statusCode).toBe(200);
    });

    it("are gone from browse and search for that member only", async () => {
      expect(await browseNames(member)).toContain("Glimmer Knight");
      expect(await browseNames(member)).not.toContain("Glimmer Dragon");
      expect(await browseNames(member, "?q=glimmer")).toEqual(["Glimmer Knight"]);
      expect(await browseNames(member, "?tags=fantasy")).toEqual(["Glimmer Knight"]);
      for (const who of [other, await personAs(h, "guest"), await personAs(h, "signed out")]) {
        expect(await browseNames(who, "?q=glimmer")).toEqual(
          expect.arrayContaining(["Glimmer Dragon", "Glimmer Knight"]),
        );
      }
    });

    it("leave the tag counts and the creator page", async () => {
      const tags = (who: Person) =>
        (
          a.get("/api/characters/tags?limit=100", who).then((r) => r.json<CharacterTags>().tags) as Promise<
            CharacterTags["tags"]
          >
        ).then((list) => Object.fromEntries(list.map((t) => [t.tag, t.count])));
      expect((await tags(member)).glimmer).toBeUndefined();
      expect((await tags(other)).glimmer).toBe(1);
      const page = (who: Person) =>
        a.get(`/api/creators/${creatorName}`, who).then((r) => r.json<CreatorProfile>());
      expect((await page(member)).characters).toEqual([]);
      expect((await page(member)).creator.id).toBe(creator.id);
      expect((await page(other)).characters.map((c) => c.name)).toEqual(["Glimmer Dragon"]);
    });

    it("cannot be chatted with: 403 blockedBotCreator on start, list, read and generate", async () => {
      const refusals = [
        await a.post("/api/conversations", { character_id: bots["Glimmer Dragon"] }, member),
        await a.get(`/api/characters/${bots["Glimmer Dragon"]}/conversations`, member),
        await a.get(`/api/conversations/${conversationId}`, member),
        await a.post(
          "/api/generate",
          { conversation_id: conversationId, type: "text", action: "send", content: "Hello?" },
          member,
        ),
      ];
      for (const res of refusals) {
        expect(res.statusCode, res.body).toBe(403);
        expect(err(res)).toMatchObject({ code: "blockedBotCreator", message: BLOCKED_BOT_CREATOR_MESSAGE });
      }
      // Its profile still opens (it is where one finds the creator to unblock), and other bots chat.
      expect((await a.get(`/api/characters/${bots["Glimmer Dragon"]}`, member)).statusCode).toBe(200);
      const fine = await a.post("/api/conversations", { character_id: bots["Glimmer Knight"] }, member);
      expect(fine.statusCode).toBe(201);
    });

    it("a creator's own chats and other members are unaffected", async () => {
      const res = await a.post("/api/conversations", { character_id: bots["Glimmer Dragon"] }, creator);
      expect(res.statusCode).toBe(201);
      const others = await a.post("/api/conversations", { character_id: bots["Glimmer Dragon"] }, other);
      expect(others.statusCode).toBe(201);
    });

    it("come back once unblocked, with the old chat", async () => {
      const fresh = await personAs(h, "free");
      await block(fresh, creator.id);
      expect(await browseNames(fresh, "?q=glimmer")).toEqual(["Glimmer Knight"]);
      await unblock(fresh, creator.id as string);
      expect(await browseNames(fresh, "?q=glimmer")).toEqual(
        expect.arrayContaining(["Glimmer Dragon", "Glimmer Knight"]),
      );
      await unblock(member, creator.id as string);
      expect((await a.get(`/api/conversations/${conversationId}`, member)).statusCode).toBe(200);
      await block(member, creator.id);
    });
  });
});

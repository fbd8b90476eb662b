import type { ApiError, Character } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { EDITOR_FORBIDDEN_MESSAGE, IN_REVIEW_MESSAGE, INVALID_ACCESS_MESSAGE } from "./policy.ts";
import { api, MEMBER_ROLES, type Person, personAs, type Role } from "./test-support.ts";

/** The core CRUD and policy rules, per role, on both databases. */
describe.each(drivers)("characters API on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  const people = {} as Record<Role, Person>;
  let creator: Person;
  let other: Person;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    a = api(h);
    for (const role of ["signed out", "guest", ...MEMBER_ROLES, "admin", "restricted", "limited"] as Role[]) {
      people[role] = await personAs(h, role);
    }
    creator = await personAs(h, "free", "Creator");
    other = await personAs(h, "basic", "Other");
  });
  afterAll(async () => {
    await h.stop();
  });

  const body = <T = ApiError>(res: { json: <U>() => U }) => res.json<T>();

  describe("create (POST /api/characters?switch=T1)", () => {
    const expected: Record<Role, { status: number; code?: string }> = {
      "signed out": { status: 401, code: "unauthorized" },
      guest: { status: 403, code: "forbidden" },
      free: { status: 201 },
      minimal: { status: 201 },
      basic: { status: 201 },
      premium: { status: 201 },
      admin: { status: 201 },
      restricted: { status: 403, code: "restricted" },
      limited: { status: 403, code: "forbidden" },
    };
    for (const [role, want] of Object.entries(expected) as [Role, (typeof expected)[Role]][]) {
      it(`as ${role} → ${want.status}`, async () => {
        const res = await a.post("/api/characters?switch=T1", { name: "Nova" }, people[role]);
        expect(res.statusCode, res.body).toBe(want.status);
        if (want.code) expect(body(res).code).toBe(want.code);
      });
    }

    it("answers the stored character with defaults, counts tokens, and a private bot needs no review", async () => {
      const c = await a.create(creator, {
        name: "  Mira  ",
        title: "Cartographer",
        greeting: "Hello, {{user}}.",
        persona: "A kind librarian who loves old maps.",
        tags: ["Fantasy", "cozy", "fantasy"],
      });
      expect(c).toMatchObject({
        name: "Mira",
        title: "Cartographer",
        visibility: "private",
        // As written, once each (a second spelling of a tag is the same tag).
        tags: ["Fantasy", "cozy"],
        creator_user_id: creator.id,
        is_creator: true,
        definition_hidden: false,
        persona: "A kind librarian who loves old maps.",
        num_messages: 0,
        num_favorites: 0,
        rating_score: null,
        lora_status: "not_trained",
        has_lorebook: false,
        moderationReport: { moderation_status: "approved", reason_for_moderation: [] },
        reportsType: [],
      });
      expect(c.token_count).toBeGreaterThan(0);
      expect(c.character_id).toBe(c.id);
    });

    it("accepts a character as large as the contract allows (beyond the app-wide 1 MB body limit)", async () => {
      const c = await a.create(creator, {
        persona: "é".repeat(50_000),
        dialogue: "🙂".repeat(25_000),
        alternate_greetings: Array.from({ length: 30 }, () => "g".repeat(20_000)),
      });
      expect(c.alternate_greetings).toHaveLength(30);
      const tooBig = await a.post(
        "/api/characters",
        { name: "x", persona: "p".repeat(9 * 1024 * 1024) },
        creator,
      );
      expect(tooBig.statusCode).toBe(413);
      expect(body(tooBig).code).toBe("payloadTooLarge");
    });

    it("a public bot goes to the review queue", async () => {
      const c = await a.create(creator, { visibility: "public" });
      expect(c.moderationReport.moderation_status).toBe("pending");
    });

    it("refuses bad input with the contract's messages, never a 500", async () => {
      const cases: [unknown, string][] = [
        [
          { name: "Tagged", tags: Array.from({ length: 13 }, (_, i) => `t${i}`) },
          "You can keep only 12 tags !",
        ],
        [{ name: "   " }, "A name is required"],
        [{}, "name"],
        [{ name: "x", visibility: "everyone" }, "visibility"],
        [{ name: "x", title: "t".repeat(201) }, "title"],
        [{ name: "x", tags: ["no/slashes"] }, "Tags use letters"],
        [{ name: 5 }, "name"],
        [[], ""],
        ["{not json", ""],
      ];
      for (const [payload, message] of cases) {
        const res = await a.post("/api/characters", payload, creator);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(body(res).code).toBe("invalidRequest");
        expect(body(res).message).toContain(message);
      }
    });
  });

  it("checks who is asking before reading the input: bad input from the unauthorised is refused as such", async () => {
    const c = await a.create(creator, { visibility: "public" });
    const bad = { name: 5, tags: "many" };
    const cases = [
      { res: () => a.post("/api/characters", bad), status: 401 },
      { res: () => a.post("/api/characters", bad, people.guest), status: 403 },
      { res: () => a.post("/api/characters/prompt-cost", bad, people.guest), status: 403 },
      { res: () => a.patch(`/api/characters/${c.id}`, bad), status: 401 },
      { res: () => a.put(`/api/characters/${c.id}`, bad, other), status: 403 },
      { res: () => a.put(`/api/admin/characters/${c.id}/moderation`, bad, other), status: 403 },
      { res: () => a.get("/api/users/characters?visibility=secret"), status: 401 },
      { res: () => a.get("/api/users/favorites?limit=0", people.guest), status: 403 },
      { res: () => a.get("/api/characters?limit=0", people.restricted), status: 403 },
    ];
    for (const { res, status } of cases) {
      const answer = await res();
      expect(answer.statusCode, answer.body).toBe(status);
    }
  });

  describe("profile and edit view (GET /api/characters/{id})", () => {
    let pub: Character;
    let priv: Character;
    let shared: Character;
    let hidden: Character;
    beforeAll(async () => {
      pub = await a.create(creator, { visibility: "public", persona: "secret persona", scenario: "s" });
      priv = await a.create(creator, { visibility: "private" });
      shared = await a.create(creator, { visibility: "public", definition_visible: true, persona: "open" });
      hidden = await a.create(creator, { visibility: "hidden" });
    });

    const everyoneButRestricted: Role[] = ["signed out", "guest", ...MEMBER_ROLES, "limited", "admin"];

    it("public and hidden bots: anyone may view; restricted accounts are refused as such", async () => {
      for (const c of [pub, hidden]) {
        for (const role of everyoneButRestricted) {
          const res = await a.get(`/api/characters/${c.id}?language=en`, people[role]);
          expect(res.statusCode, `${role} ${c.visibility}`).toBe(200);
        }
        const res = await a.get(`/api/characters/${c.id}`, people.restricted);
        expect(res.statusCode).toBe(403);
        expect(body(res).code).toBe("restricted");
      }
    });

    it("the definition is withheld from everyone but the creator and admins unless shared", async () => {
      for (const role of everyoneButRestricted) {
        const seen = body<Character>(await a.get(`/api/characters/${pub.id}`, people[role]));
        const admin = role === "admin";
        expect(seen.definition_hidden, role).toBe(!admin);
        for (const field of [
          "persona",
          "scenario",
          "dialogue",
          "system_prompt",
          "post_history_instructions",
        ]) {
          if (admin) expect(seen[field as keyof Character], `${role} ${field}`).not.toBeNull();
          else expect(seen[field as keyof Character], `${role} ${field}`).toBeNull();
        }
        expect(seen.greeting).toBe("");
        expect(seen.is_creator).toBe(false);
        const open = body<Character>(await a.get(`/api/characters/${shared.id}`, people[role]));
        expect(open.definition_hidden).toBe(false);
        expect(open.persona).toBe("open");
      }
      const own = body<Character>(await a.get(`/api/characters/${pub.id}`, creator));
      expect(own).toMatchObject({ persona: "secret persona", definition_hidden: false, is_creator: true });
    });

    it("private bots: creator and admins only; everyone else gets 404 invalidAccess, as for a missing id", async () => {
      expect((await a.get(`/api/characters/${priv.id}`, creator)).statusCode).toBe(200);
      expect((await a.get(`/api/characters/${priv.id}`, people.admin)).statusCode).toBe(200);
      const ids = [priv.id, "00000000-0000-4000-8000-000000000000"];
      for (const role of ["signed out", "guest", ...MEMBER_ROLES, "limited"] as Role[]) {
        for (const id of ids) {
          const res = await a.get(`/api/characters/${id}`, people[role]);
          expect(res.statusCode, `${role} ${id}`).toBe(404);
          expect(body(res)).toEqual({ code: "invalidAccess", message: INVALID_ACCESS_MESSAGE });
        }
      }
    });

    it("a path id that is not a UUID is refused with 400 invalidRequest on every character route", async () => {
      const id = "not-a-uuid";
      const requests = [
        () => a.get(`/api/characters/${id}`, creator),
        () => a.get(`/api/characters/${id}`),
        () => a.get(`/api/characters/${id}?switch=T1`, people.admin),
        () => a.patch(`/api/characters/${id}`, { title: "x" }, creator),
        () => a.put(`/api/characters/${id}`, { title: "x" }, creator),
        () => a.delete(`/api/characters/${id}`, creator),
        () =>
          a.put(`/api/admin/characters/${id}/moderation`, { moderation_status: "approved" }, people.admin),
        () => a.post(`/api/characters/${id}/favorite`, {}, other),
        () => a.delete(`/api/characters/${id}/favorite`, other),
        () => a.upload(`/api/characters/${id}/avatar`, creator, Buffer.from("not an image")),
        () => a.delete(`/api/characters/${id}/avatar`, creator),
        () => a.get(`/api/characters/${id}/export`, creator),
        () => a.get(`/api/characters/${"1".repeat(64)}`, creator),
        () => a.get(`/api/characters/${encodeURIComponent("' OR 1=1 --")}`, creator),
      ];
      for (const request of requests) {
        const res = await request();
        expect(res.statusCode, res.body).toBe(400);
        expect(body(res).code).toBe("invalidRequest");
        expect(body(res).issues?.[0]?.path).toBe("id");
      }
    });

    it("the edit view (?switch=T1) is the creator's and admins'; others get the editor's refusal", async () => {
      const own = await a.get(`/api/characters/${pub.id}?switch=T1`, creator);
      expect(own.statusCode).toBe(200);
      expect(body<Character>(own).persona).toBe("secret persona");
      expect((await a.get(`/api/characters/${pub.id}?switch=T1`, people.admin)).statusCode).toBe(200);
      for (const role of ["guest", ...MEMBER_ROLES, "limited"] as Role[]) {
        const res = await a.get(`/api/characters/${shared.id}?switch=T1`, people[role]);
        expect(res.statusCode, role).toBe(403);
        expect(body(res)).toEqual({ code: "forbidden", message: EDITOR_FORBIDDEN_MESSAGE });
      }
      expect((await a.get(`/api/characters/${pub.id}?switch=T1`)).statusCode).toBe(401);
      expect((await a.get(`/api/characters/${priv.id}?switch=T1`, other)).statusCode).toBe(404);
    });
  });

  describe("edit (PUT and PATCH /api/characters/{id}?switch=T1)", () => {
    it("applies only the given fields and recounts tokens when the prompt text changes", async () => {
      const c = await a.create(creator, {
        title: "Before",
        persona: "short",
        tags: ["one"],
        definition_visible: true,
      });
      const res = await a.patch(`/api/characters/${c.id}?switch=T1`, { title: "After" }, creator);
      expect(res.statusCode, res.body).toBe(200);
      const after = body<Character>(res);
      expect(after).toMatchObject({
        title: "After",
        persona: "short",
        tags: ["one"],
        definition_visible: true,
      });
      expect(after.token_count).toBe(c.token_count);
      const longer = body<Character>(
        await a.put(`/api/characters/${c.id}?switch=T1`, { persona: "much longer ".repeat(40) }, creator),
      );
      expect(longer.title).toBe("After");
      expect(longer.token_count).toBeGreaterThan(c.token_count);
      expect(Date.parse(longer.updated_at)).toBeGreaterThanOrEqual(Date.parse(c.updated_at));
    });

    it("only the creator (with create_character) and admins may edit", async () => {
      const c = await a.create(creator, { visibility: "hidden" });
      for (const role of ["guest", ...MEMBER_ROLES] as Role[]) {
        const res = await a.patch(`/api/characters/${c.id}?switch=T1`, { title: "x" }, people[role]);
        expect(res.statusCode, role).toBe(403);
        expect(body(res).message).toBe(EDITOR_FORBIDDEN_MESSAGE);
      }
      expect((await a.patch(`/api/characters/${c.id}`, { title: "x" })).statusCode).toBe(401);
      expect(body(await a.patch(`/api/characters/${c.id}`, { title: "x" }, people.restricted)).code).toBe(
        "restricted",
      );
      const byAdmin = await a.patch(
        `/api/characters/${c.id}?switch=T1`,
        { title: "Fixed by admin" },
        people.admin,
      );
      expect(byAdmin.statusCode).toBe(200);
      // A moderator's edit leaves the review state alone.
      expect(body<Character>(byAdmin).moderationReport.moderation_status).toBe("approved");

      // A creator who became limited keeps reading their bot but cannot change it.
      const limitedCreator = await personAs(h, "free");
      const own = await a.create(limitedCreator);
      await updateUser(h.database.db, limitedCreator.id as string, { restriction: "limited" });
      expect((await a.get(`/api/characters/${own.id}?switch=T1`, limitedCreator)).statusCode).toBe(200);
      const refused = await a.patch(`/api/characters/${own.id}`, { title: "x" }, limitedCreator);
      expect(refused.statusCode).toBe(403);
      expect(body(refused).message).toContain("limited access");
    });

    it("a bot in review cannot be edited by its creator (409); an admin may", async () => {
      const c = await a.create(creator, { visibility: "public" });
      expect(c.moderationReport.moderation_status).toBe("pending");
      for (const method of ["put", "patch"] as const) {
        const res = await a[method](`/api/characters/${c.id}?switch=T1`, { title: "x" }, creator);
        expect(res.statusCode).toBe(409);
        expect(body(res)).toEqual({ code: "conflict", message: IN_REVIEW_MESSAGE });
      }
      // Review happens after the fact: the bot stays visible meanwhile.
      expect((await a.get(`/api/characters/${c.id}`, other)).statusCode).toBe(200);
      expect((await a.patch(`/api/characters/${c.id}`, { title: "ok" }, people.admin)).statusCode).toBe(200);
    });

    it("making a bot public sends it to review; private needs none", async () => {
      const c = await a.create(creator);
      const pub = body<Character>(
        await a.patch(`/api/characters/${c.id}`, { visibility: "public" }, creator),
      );
      expect(pub.moderationReport.moderation_status).toBe("pending");
      const priv = await a.create(creator, { visibility: "hidden" });
      const edited = body<Character>(await a.patch(`/api/characters/${priv.id}`, { title: "t" }, creator));
      expect(edited.moderationReport.moderation_status).toBe("approved");
    });

    it("refuses bad changes with 400 and the contract's messages", async () => {
      const c = await a.create(creator);
      const cases: [unknown, string][] = [
        [{}, "Nothing to change"],
        [{ tags: Array.from({ length: 13 }, (_, i) => `t${i}`) }, "You can keep only 12 tags !"],
        [{ name: "" }, "A name is required"],
        [{ is_nsfw: "yes" }, "is_nsfw"],
        ["[1,2", ""],
      ];
      for (const [payload, message] of cases) {
        const res = await a.patch(`/api/characters/${c.id}?switch=T1`, payload, creator);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(body(res).message).toContain(message);
      }
    });

    it("permanently private is a moderator's decision", async () => {
      const c = await a.create(creator);
      const self = await a.patch(`/api/characters/${c.id}`, { visibility: "permanently_private" }, creator);
      expect(self.statusCode).toBe(403);
      const byAdmin = await a.patch(
        `/api/characters/${c.id}`,
        { visibility: "permanently_private" },
        people.admin,
      );
      expect(byAdmin.statusCode).toBe(200);
      const lift = await a.patch(`/api/characters/${c.id}`, { visibility: "public" }, creator);
      expect(lift.statusCode).toBe(403);
      expect(body(lift).message).toContain("permanently private");
      expect(
        (await a.patch(`/api/characters/${c.id}`, { title: "still editable" }, creator)).statusCode,
      ).toBe(200);
      expect((await a.get(`/api/characters/${c.id}`, other)).statusCode).toBe(404);
    });
  });

  describe("moderation (PUT /api/admin/characters/{id}/moderation)", () => {
    it("admins complete a review; the creator sees the outcome and resubmits by editing", async () => {
      const c = await a.create(creator, { visibility: "public" });
      const url = `/api/admin/characters/${c.id}/moderation`;
      for (const role of ["signed out", "guest", ...MEMBER_ROLES, "limited", "restricted"] as Role[]) {
        const res = await a.put(
          url,
          { moderation_status: "approved" },
          role === "signed out" ? undefined : people[role],
        );
        expect(res.statusCode, role).toBe(role === "signed out" ? 401 : 403);
      }
      expect((await a.put(url, { moderation_status: "approved" }, creator)).statusCode).toBe(403);
      const decision = {
        moderation_status: "fix_required",
        reason_for_moderation: ["Greeting describes real people"],
        action_taken_description: "Hidden from browse until fixed",
      };
      const res = await a.put(url, decision, people.admin);
      expect(res.statusCode, res.body).toBe(200);
      const seen = body<Character>(await a.get(`/api/characters/${c.id}?switch=T1`, creator));
      expect(seen.moderationReport).toEqual(decision);
      const fixed = body<Character>(await a.patch(`/api/characters/${c.id}`, { greeting: "Hi" }, creator));
      expect(fixed.moderationReport.moderation_status).toBe("rereview_required");
      expect((await a.put(url, { moderation_status: "maybe" }, people.admin)).statusCode).toBe(400);
      expect((await a.put(url, "{", people.admin)).statusCode).toBe(400);
    });
  });

  describe("delete (DELETE /api/characters/{id})", () => {
    it("needs the creator with delete_character, or an admin", async () => {
      const c = await a.create(creator, { visibility: "public" });
      for (const role of ["guest", ...MEMBER_ROLES] as Role[]) {
        const res = await a.delete(`/api/characters/${c.id}`, people[role]);
        expect(res.statusCode, role).toBe(403);
        expect(body(res).code).toBe("forbidden");
      }
      expect((await a.delete(`/api/characters/${c.id}`)).statusCode).toBe(401);
      expect(body(await a.delete(`/api/characters/${c.id}`, people.restricted)).code).toBe("restricted");
      expect((await a.delete(`/api/characters/${c.id}`, creator)).statusCode).toBe(204);
      const gone = await a.get(`/api/characters/${c.id}`, creator);
      expect(gone.statusCode).toBe(404);
      expect(body(gone).code).toBe("invalidAccess");
      expect((await a.delete(`/api/characters/${c.id}`, creator)).statusCode).toBe(404);
    });

    it("a creator without delete_character (limited) is refused with 403 so the client offers contact", async () => {
      const owner = await personAs(h, "premium");
      const c = await a.create(owner);
      await updateUser(h.database.db, owner.id as string, { restriction: "limited" });
      const res = await a.delete(`/api/characters/${c.id}`, owner);
      expect(res.statusCode).toBe(403);
      expect(body(res).code).toBe("forbidden");
    });

    it("admins delete anything, private bots included", async () => {
      const c = await a.create(other, { visibility: "private" });
      expect((await a.delete(`/api/characters/${c.id}`, people.admin)).statusCode).toBe(204);
    });
  });
});

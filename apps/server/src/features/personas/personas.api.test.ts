import { randomUUID } from "node:crypto";
import {
  type ApiError,
  DEFAULT_PERSONA_DELETE_MESSAGE,
  type Persona,
  type PersonaList,
} from "@hearth/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import type { HttpError } from "../../http/errors.ts";
import { users } from "../accounts/schema.ts";
import { getViewer } from "../accounts/viewer.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { findPersona, resolvePersonaForPrompt } from "./index.ts";
import { PERSONA_NOT_FOUND_MESSAGE } from "./policy.ts";
import { isUniqueViolation } from "./queries.ts";
import { personas } from "./schema.ts";
import { PersonaService } from "./service.ts";

/** The personas API, its policy and limits, and the prompt resolver, on both databases. */
describe.each(drivers)("personas on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: { HEARTH_PERSONA_LIMITS: "free:2,minimal:0,basic:unlimited,premium:4" },
    });
    a = api(h);
  });
  afterAll(async () => {
    await h.stop();
  });

  const create = async (who: Person, name: string, highlights?: string): Promise<Persona> => {
    const res = await a.post("/api/personas", { name, ...(highlights !== undefined && { highlights }) }, who);
    if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
    return res.json<Persona>();
  };
  const list = async (who: Person, q?: string) => {
    const res = await a.get(`/api/personas${q === undefined ? "" : `?q=${encodeURIComponent(q)}`}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PersonaList>().personas;
  };
  const defaults = async (userId: string) =>
    (
      await h.database.db
        .select({ id: personas.id })
        .from(personas)
        .where(and(eq(personas.userId, userId), eq(personas.isDefault, true)))
    ).map((r) => r.id);
  const err = (res: { json: <T>() => T }) => res.json<ApiError>();
  /** The Viewer behind a test person's session, as the routes see it. */
  const viewerOf = async (who: Person) => {
    const req = { headers: { cookie: who.cookie } } as unknown as Parameters<typeof getViewer>[1];
    const v = await getViewer(h.auth, req);
    if (!v) throw new Error("no session");
    return v;
  };

  describe("who may use personas", () => {
    const someId = randomUUID();
    const calls: [string, (who: Person) => ReturnType<ReturnType<typeof api>["get"]>][] = [
      ["GET /api/personas", (who) => a.get("/api/personas", who)],
      ["POST /api/personas", (who) => a.post("/api/personas", { name: "Mira" }, who)],
      ["GET /api/personas/{id}", (who) => a.get(`/api/personas/${someId}`, who)],
      ["PATCH /api/personas/{id}", (who) => a.patch(`/api/personas/${someId}`, { name: "X" }, who)],
      ["DELETE /api/personas/{id}", (who) => a.delete(`/api/personas/${someId}`, who)],
      ["POST /api/personas/{id}/default", (who) => a.post(`/api/personas/${someId}/default`, {}, who)],
      ["DELETE /api/personas/{id}/avatar", (who) => a.delete(`/api/personas/${someId}/avatar`, who)],
    ];
    const refused: [Role, number, string, string | undefined][] = [
      ["signed out", 401, "unauthorized", undefined],
      ["guest", 403, "forbidden", "personas_not_allowed"],
      ["restricted", 403, "restricted", undefined],
      ["limited", 403, "forbidden", "personas_not_allowed"],
    ];
    for (const [role, status, code, errorType] of refused) {
      it(`${role} → ${status} ${code} on every route`, async () => {
        const who = await personAs(h, role);
        for (const [name, call] of calls) {
          const res = await call(who);
          expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
          expect(err(res).code, name).toBe(code);
          expect(err(res).error_type, name).toBe(errorType);
        }
      });
    }

    it("guests are invited to sign up; limited accounts are told why", async () => {
      const guest = await a.get("/api/personas", await personAs(h, "guest"));
      expect(err(guest).message).toBe("Sign up free to create personas.");
      const limited = await a.get("/api/personas", await personAs(h, "limited"));
      expect(err(limited).message).toBe("Your account has limited access and cannot use personas.");
    });

    it("members of every tier and admins may list theirs (empty at first)", async () => {
      for (const role of ["free", "basic", "premium", "admin"] as Role[]) {
        expect(await list(await personAs(h, role))).toEqual([]);
      }
    });
  });

  describe("create (POST /api/personas)", () => {
    it("answers the stored persona; the first one becomes the default, later ones do not", async () => {
      const me = await personAs(h, "basic");
      const first = await create(me, "  Mira  ", "  A wandering cartographer.  ");
      expect(first).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: "Mira",
        avatar_url: null,
        highlights: "A wandering cartographer.",
        is_default: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const second = await create(me, "Kael");
      expect(second).toMatchObject({ is_default: false, highlights: "" });
      expect(await defaults(me.id as string)).toEqual([first.id]);
    });

    it("accepts the limits exactly: a 30-character name and 1000 characters of highlights, or none", async () => {
      const me = await personAs(h, "basic");
      const p = await create(me, "n".repeat(30), "h".repeat(1000));
      expect(p.name).toHaveLength(30);
      expect(p.highlights).toHaveLength(1000);
      expect((await create(me, "Ünïcødé 🌙 名前", "")).name).toBe("Ünïcødé 🌙 名前");
    });

    it("refuses bad bodies with 400 (never 500) and stores nothing", async () => {
      const me = await personAs(h, "basic");
      const bad: [unknown, string][] = [
        [{ name: "" }, "name"],
        [{ name: "   " }, "name"],
        [{ name: "n".repeat(31) }, "name"],
        [{ name: "Two\nlines" }, "name"],
        [{ name: "Tab\there" }, "name"],
        [{ name: "Mira", highlights: "h".repeat(1001) }, "highlights"],
        [{ name: 42 }, "name"],
        [{ name: null }, "name"],
        [{ highlights: "no name" }, "name"],
        [{ name: "Mira", highlights: 7 }, "highlights"],
        [{}, "name"],
        [[], ""],
        ["null", ""],
        ['"Mira"', ""],
      ];
      for (const [body, path] of bad) {
        const res = await a.post("/api/personas", body, me);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(err(res).code).toBe("invalidRequest");
        if (path) expect(err(res).issues?.[0]?.path).toBe(path);
      }
      const brokenJson = await h.app.inject({
        method: "POST",
        url: "/api/personas",
        headers: { cookie: me.cookie ?? "", "content-type": "application/json" },
        payload: '{"name": "Mi',
      });
      expect(brokenJson.statusCode).toBe(400);
      const noBody = await h.app.inject({
        method: "POST",
        url: "/api/personas",
        headers: { cookie: me.cookie ?? "" },
      });
      expect(noBody.statusCode).toBe(400);
      const text = await h.app.inject({
        method: "POST",
        url: "/api/personas",
        headers: { cookie: me.cookie ?? "", "content-type": "text/plain" },
        payload: "Mira",
      });
      expect(text.statusCode).toBeGreaterThanOrEqual(400);
      expect(text.statusCode).toBeLessThan(500);
      expect(await list(me)).toEqual([]);
    });

    it("names are unique per user ignoring case (409 persona_name_taken); other users may reuse them", async () => {
      const me = await personAs(h, "basic");
      await create(me, "Mira");
      const again = await a.post("/api/personas", { name: " MIRA " }, me);
      expect(again.statusCode).toBe(409);
      expect(err(again)).toMatchObject({
        code: "conflict",
        error_type: "persona_name_taken",
        message: 'You already have a persona named "MIRA". Choose another name.',
      });
      expect(await create(await personAs(h, "basic"), "Mira")).toMatchObject({ is_default: true });
    });

    it("concurrent creates by one user still leave exactly one default and distinct names", async () => {
      const me = await personAs(h, "basic");
      const results = await Promise.all(
        ["Ana", "Ben", "Cy", "Dee", "ana", "ANA"].map((name) => a.post("/api/personas", { name }, me)),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 409, 409]);
      expect(await defaults(me.id as string)).toHaveLength(1);
      expect((await list(me)).map((p) => p.name.toLowerCase()).sort()).toEqual(["ana", "ben", "cy", "dee"]);
    });
  });

  describe("list and search (GET /api/personas?q=)", () => {
    let me: Person;
    beforeAll(async () => {
      me = await personAs(h, "basic");
      for (const name of ["Zed", "Mira", "mika", "Amira", "Bo", "Mi_ra", "100%"]) await create(me, name);
      // Someone else's Mira never shows.
      await create(await personAs(h, "basic"), "Miranda");
    });

    it("lists the default first, then by name ignoring case", async () => {
      // Where punctuation sorts depends on the database's collation; letters do not.
      const names = (await list(me)).map((p) => p.name).filter((n) => /^[a-z]+$/i.test(n));
      expect(names).toEqual(["Zed", "Amira", "Bo", "mika", "Mira"]);
    });

    it("q is a case-insensitive prefix of the name", async () => {
      expect((await list(me, "mi")).map((p) => p.name)).toEqual(["Mi_ra", "mika", "Mira"]);
      expect((await list(me, "MI")).map((p) => p.name)).toEqual(["Mi_ra", "mika", "Mira"]);
      expect((await list(me, "mir")).map((p) => p.name)).toEqual(["Mira"]);
      expect((await list(me, "  z  ")).map((p) => p.name)).toEqual(["Zed"]);
      expect(await list(me, "ira")).toEqual([]);
      expect((await list(me, "")).length).toBe(7);
    });

    it("LIKE wildcards in q are plain characters", async () => {
      expect((await list(me, "mi_")).map((p) => p.name)).toEqual(["Mi_ra"]);
      expect(await list(me, "%")).toEqual([]);
      expect((await list(me, "100%")).map((p) => p.name)).toEqual(["100%"]);
      expect(await list(me, "\\")).toEqual([]);
    });

    it("refuses an overlong q with 400", async () => {
      const res = await a.get(`/api/personas?q=${"a".repeat(101)}`, me);
      expect(res.statusCode).toBe(400);
    });
  });

  describe("read, edit, switch default, delete", () => {
    it("GET one answers the persona; another user's or a missing id is 404 persona_not_found", async () => {
      const me = await personAs(h, "basic");
      const other = await personAs(h, "basic");
      const mine = await create(me, "Mira", "Cartographer");
      expect((await a.get(`/api/personas/${mine.id}`, me)).json<Persona>()).toEqual(mine);
      for (const url of [`/api/personas/${mine.id}`, `/api/personas/${randomUUID()}`]) {
        const res = await a.get(url, other);
        expect(res.statusCode, url).toBe(404);
        expect(err(res)).toEqual({
          code: "notFound",
          message: PERSONA_NOT_FOUND_MESSAGE,
          error_type: "persona_not_found",
        });
      }
    });

    it("an id that is not a UUID is 400 invalidRequest on every route, before any lookup", async () => {
      const me = await personAs(h, "basic");
      await create(me, "Mira");
      for (const bad of ["not-a-uuid", "1", `${randomUUID()}x`, "%00"]) {
        const url = `/api/personas/${bad}`;
        for (const res of [
          await a.get(url, me),
          await a.patch(url, { name: "X" }, me),
          await a.delete(url, me),
          await a.post(`${url}/default`, {}, me),
          await a.delete(`${url}/avatar`, me),
        ]) {
          expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
          expect(err(res).code).toBe("invalidRequest");
          expect(err(res).error_type).toBeUndefined();
        }
      }
      // Who may not use personas is told so first, whatever the id.
      expect((await a.get("/api/personas/not-a-uuid")).statusCode).toBe(401);
      expect((await a.get("/api/personas/not-a-uuid", await personAs(h, "guest"))).statusCode).toBe(403);
    });

    it("another user's persona cannot be edited, switched, deleted or have its avatar removed (404, unchanged)", async () => {
      const me = await personAs(h, "basic");
      const other = await personAs(h, "premium");
      await create(me, "Main");
      const mine = await create(me, "Side");
      const admin = await personAs(h, "admin");
      for (const who of [other, admin]) {
        for (const res of [
          await a.patch(`/api/personas/${mine.id}`, { name: "Stolen" }, who),
          await a.post(`/api/personas/${mine.id}/default`, {}, who),
          await a.delete(`/api/personas/${mine.id}`, who),
          await a.delete(`/api/personas/${mine.id}/avatar`, who),
        ]) {
          expect(res.statusCode, res.body).toBe(404);
          expect(err(res).error_type).toBe("persona_not_found");
        }
      }
      expect((await a.get(`/api/personas/${mine.id}`, me)).json<Persona>()).toEqual(mine);
    });

    it("PATCH changes only the fields sent", async () => {
      const me = await personAs(h, "basic");
      const p = await create(me, "Mira", "Cartographer");
      await new Promise((r) => setTimeout(r, 5));
      const renamed = (await a.patch(`/api/personas/${p.id}`, { name: "Mirabel" }, me)).json<Persona>();
      expect(renamed).toMatchObject({
        id: p.id,
        name: "Mirabel",
        highlights: "Cartographer",
        is_default: true,
      });
      expect(renamed.created_at).toBe(p.created_at);
      expect(renamed.updated_at > p.updated_at).toBe(true);
      const described = (await a.patch(`/api/personas/${p.id}`, { highlights: "" }, me)).json<Persona>();
      expect(described).toMatchObject({ name: "Mirabel", highlights: "" });
      // Same name in another case is this persona's own name, not a clash.
      const recased = await a.patch(`/api/personas/${p.id}`, { name: "MIRABEL" }, me);
      expect(recased.statusCode).toBe(200);
      expect(recased.json<Persona>().name).toBe("MIRABEL");
    });

    it("PATCH validates like create and refuses a clash with another of the user's names", async () => {
      const me = await personAs(h, "basic");
      const p = await create(me, "Mira");
      await create(me, "Kael");
      for (const body of [
        {},
        { name: "" },
        { name: "n".repeat(31) },
        { name: null },
        { highlights: "h".repeat(1001) },
        { highlights: null },
        [],
        "null",
      ]) {
        const res = await a.patch(`/api/personas/${p.id}`, body, me);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      }
      const clash = await a.patch(`/api/personas/${p.id}`, { name: "kael" }, me);
      expect(clash.statusCode).toBe(409);
      expect(err(clash).error_type).toBe("persona_name_taken");
      expect((await a.get(`/api/personas/${p.id}`, me)).json<Persona>().name).toBe("Mira");
    });

    it("POST /default switches the default atomically: exactly one afterwards, the old one unset", async () => {
      const me = await personAs(h, "basic");
      const a1 = await create(me, "Ash");
      const b1 = await create(me, "Birch");
      const res = await a.post(`/api/personas/${b1.id}/default`, {}, me);
      expect(res.statusCode).toBe(200);
      expect(res.json<Persona>()).toMatchObject({ id: b1.id, is_default: true });
      expect(await defaults(me.id as string)).toEqual([b1.id]);
      expect((await a.get(`/api/personas/${a1.id}`, me)).json<Persona>().is_default).toBe(false);
      expect((await list(me)).map((p) => p.name)).toEqual(["Birch", "Ash"]);
      // Making the default the default again changes nothing; an empty request body is fine.
      const again = await h.app.inject({
        method: "POST",
        url: `/api/personas/${b1.id}/default`,
        headers: { cookie: me.cookie ?? "" },
      });
      expect(again.statusCode).toBe(200);
      expect(await defaults(me.id as string)).toEqual([b1.id]);
    });

    it("concurrent switches end with exactly one default", async () => {
      const me = await personAs(h, "basic");
      const ps = [];
      for (const name of ["P1", "P2", "P3", "P4", "P5"]) ps.push(await create(me, name));
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(ps.map((p) => a.post(`/api/personas/${p.id}/default`, {}, me)));
        expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
        const now = await defaults(me.id as string);
        expect(now).toHaveLength(1);
        expect((await list(me))[0]?.id).toBe(now[0]);
      }
    });

    it("under load straight on the service, switches and creates stay consistent (the owner lock)", async () => {
      const me = await personAs(h, "free");
      const viewer = { ...(await viewerOf(me)) };
      const service = new PersonaService({
        db: h.database.db,
        storage: h.storage,
        limits: { free: 6, minimal: 0, basic: 0, premium: 0 },
      });
      const created = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => service.create(viewer, { name: `Load ${i}`, highlights: "" })),
      );
      expect(created.filter((r) => r.status === "fulfilled")).toHaveLength(6);
      for (const r of created) {
        if (r.status === "rejected") expect((r.reason as HttpError).errorType).toBe("persona_limit_reached");
      }
      expect(await defaults(me.id as string)).toHaveLength(1);
      const ids = (await list(me)).map((p) => p.id);
      for (let round = 0; round < 5; round++) {
        await Promise.all([...ids, ...ids].map((id) => service.setDefault(me.id as string, id)));
        expect(await defaults(me.id as string)).toHaveLength(1);
      }
    });

    it("the database itself refuses a second default, a duplicate name and an overlong name", async () => {
      const me = await personAs(h, "basic");
      await create(me, "One");
      const insert = (values: { name: string; isDefault?: boolean }) =>
        h.database.db
          .insert(personas)
          .values({ userId: me.id as string, ...values })
          .then(
            () => null,
            (error: unknown) => error,
          );
      const secondDefault = await insert({ name: "Two", isDefault: true });
      expect(isUniqueViolation(secondDefault, "personas_user_default_key")).toBe(true);
      expect(isUniqueViolation(secondDefault, "personas_user_name_key")).toBe(false);
      const sameName = await insert({ name: "ONE" });
      expect(isUniqueViolation(sameName, "personas_user_name_key")).toBe(true);
      const long = await insert({ name: "n".repeat(31) });
      expect(long).toBeInstanceOf(Error);
      expect(isUniqueViolation(long, "personas_user_name_key")).toBe(false);
    });

    it("DELETE refuses the default persona with the spec's message, and deletes any other", async () => {
      const me = await personAs(h, "basic");
      const main = await create(me, "Main");
      const side = await create(me, "Side");
      const refused = await a.delete(`/api/personas/${main.id}`, me);
      expect(refused.statusCode).toBe(409);
      expect(err(refused)).toEqual({
        code: "conflict",
        message: DEFAULT_PERSONA_DELETE_MESSAGE,
        error_type: "default_persona_delete",
      });
      expect(DEFAULT_PERSONA_DELETE_MESSAGE).toBe(
        "You cannot delete the default persona, please set another persona as the default or create a new one first.",
      );
      const gone = await a.delete(`/api/personas/${side.id}`, me);
      expect(gone.statusCode).toBe(204);
      expect((await a.get(`/api/personas/${side.id}`, me)).statusCode).toBe(404);
      expect((await a.delete(`/api/personas/${side.id}`, me)).statusCode).toBe(404);
      // The only persona is the default: it stays until another one takes over.
      expect((await a.delete(`/api/personas/${main.id}`, me)).statusCode).toBe(409);
      const next = await create(me, "Next");
      await a.post(`/api/personas/${next.id}/default`, {}, me);
      expect((await a.delete(`/api/personas/${main.id}`, me)).statusCode).toBe(204);
      expect((await list(me)).map((p) => [p.name, p.is_default])).toEqual([["Next", true]]);
    });

    it("a user's personas go with their account", async () => {
      const me = await personAs(h, "basic");
      await create(me, "Gone");
      await h.database.db.delete(users).where(eq(users.id, me.id as string));
      const left = await h.database.db
        .select()
        .from(personas)
        .where(eq(personas.userId, me.id as string));
      expect(left).toEqual([]);
    });
  });

  describe("limits per tier (HEARTH_PERSONA_LIMITS)", () => {
    const fill = async (who: Person, n: number) => {
      for (let i = 0; i < n; i++) await create(who, `Persona ${i}`);
    };

    it("free members stop at their limit with 403 persona_limit_reached; deleting one makes room", async () => {
      const me = await personAs(h, "free");
      await fill(me, 2);
      const res = await a.post("/api/personas", { name: "One too many" }, me);
      expect(res.statusCode).toBe(403);
      expect(err(res)).toEqual({
        code: "limitReached",
        error_type: "persona_limit_reached",
        message:
          "You can have up to 2 personas on your plan. Delete one to create another, or upgrade for more.",
      });
      const side = (await list(me)).find((p) => !p.is_default) as Persona;
      await a.delete(`/api/personas/${side.id}`, me);
      expect((await a.post("/api/personas", { name: "Room again" }, me)).statusCode).toBe(201);
    });

    it("premium members have their own, higher limit (no upgrade offered at the top tier)", async () => {
      const me = await personAs(h, "premium");
      await fill(me, 4);
      const res = await a.post("/api/personas", { name: "Fifth" }, me);
      expect(res.statusCode).toBe(403);
      expect(err(res).message).toBe(
        "You can have up to 4 personas on your plan. Delete one to create another.",
      );
    });

    it("a lapsed subscription counts as free; cancelled keeps the tier until it ends", async () => {
      const lapsed = await personAs(h, "premium");
      await updateUser(h.database.db, lapsed.id as string, { status: "expired" });
      await fill(lapsed, 2);
      expect((await a.post("/api/personas", { name: "Third" }, lapsed)).statusCode).toBe(403);
      const cancelled = await personAs(h, "premium");
      await updateUser(h.database.db, cancelled.id as string, { status: "cancelled" });
      await fill(cancelled, 3);
      expect((await a.post("/api/personas", { name: "Fourth" }, cancelled)).statusCode).toBe(201);
    });

    it("a tier set to 0 has no personas; one set to unlimited has no limit", async () => {
      const minimal = await personAs(h, "minimal");
      const res = await a.post("/api/personas", { name: "Mira" }, minimal);
      expect(res.statusCode).toBe(403);
      expect(err(res)).toMatchObject({
        error_type: "persona_limit_reached",
        message: "Personas are not included in your plan. Upgrade to create them.",
      });
      await fill(await personAs(h, "basic"), 8);
    });

    it("admins have no limit", async () => {
      const admin = await personAs(h, "admin");
      await fill(admin, 7);
      expect(await list(admin)).toHaveLength(7);
    });

    it("concurrent creates cannot pass the limit", async () => {
      const me = await personAs(h, "free");
      const results = await Promise.all(
        ["A", "B", "C", "D", "E"].map((name) => a.post("/api/personas", { name }, me)),
      );
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
      expect(results.filter((r) => r.statusCode === 403)).toHaveLength(3);
      expect(await list(me)).toHaveLength(2);
    });

    it("lowering a limit keeps existing personas but blocks new ones", async () => {
      const me = await personAs(h, "premium");
      await fill(me, 3);
      await updateUser(h.database.db, me.id as string, { status: "expired" });
      expect(await list(me)).toHaveLength(3);
      expect((await a.post("/api/personas", { name: "More" }, me)).statusCode).toBe(403);
      const p = (await list(me))[1] as Persona;
      expect((await a.patch(`/api/personas/${p.id}`, { highlights: "still editable" }, me)).statusCode).toBe(
        200,
      );
    });
  });

  describe("resolvePersonaForPrompt and findPersona", () => {
    it("uses the given persona if it is the user's, else the default, else the display name", async () => {
      const db = h.database.db;
      const me = await personAs(h, "basic", "Robin Display");
      const meId = me.id as string;
      expect(await resolvePersonaForPrompt(db, meId, null)).toEqual({
        id: null,
        name: "Robin Display",
        description: "",
      });
      expect(await resolvePersonaForPrompt(db, meId, randomUUID())).toEqual({
        id: null,
        name: "Robin Display",
        description: "",
      });
      const main = await create(me, "Mira", "A cartographer.");
      const side = await create(me, "Kael", "A smuggler.");
      const theirs = await create(await personAs(h, "basic"), "Theirs", "Not mine.");
      const asMain = { id: main.id, name: "Mira", description: "A cartographer." };
      expect(await resolvePersonaForPrompt(db, meId, side.id)).toEqual({
        id: side.id,
        name: "Kael",
        description: "A smuggler.",
      });
      expect(await resolvePersonaForPrompt(db, meId, main.id)).toEqual(asMain);
      expect(await resolvePersonaForPrompt(db, meId, null)).toEqual(asMain);
      expect(await resolvePersonaForPrompt(db, meId, theirs.id)).toEqual(asMain);
      expect(await resolvePersonaForPrompt(db, meId, "not-a-uuid")).toEqual(asMain);
      expect(await resolvePersonaForPrompt(db, meId, randomUUID())).toEqual(asMain);
      // A conversation whose persona was deleted falls back to the default.
      await a.delete(`/api/personas/${side.id}`, me);
      expect(await resolvePersonaForPrompt(db, meId, side.id)).toEqual(asMain);
      // Unknown users get a neutral name.
      expect(await resolvePersonaForPrompt(db, "no-such-user", null)).toEqual({
        id: null,
        name: "User",
        description: "",
      });
    });

    it("findPersona answers the persona only to its owner", async () => {
      const me = await personAs(h, "basic");
      const other = await personAs(h, "basic");
      const p = await create(me, "Mira");
      expect((await findPersona(h.database.db, me.id as string, p.id))?.name).toBe("Mira");
      expect(await findPersona(h.database.db, other.id as string, p.id)).toBeNull();
      expect(await findPersona(h.database.db, me.id as string, "nope")).toBeNull();
    });
  });

  it("the name search is served by the (user_id, lower(name)) index", async () => {
    const rows = await h.database.db.execute<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where tablename = 'personas' order by indexname`,
    );
    const defs = rows.rows.map((r) => r.indexdef).join("\n");
    expect(defs).toContain("lower(name) text_pattern_ops");
    expect(defs).toMatch(/personas_user_default_key.*WHERE is_default/);
  });
});

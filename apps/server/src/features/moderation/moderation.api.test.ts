import { randomUUID } from "node:crypto";
import type {
  AdminCharacterResult,
  AdminReview,
  AdminReviewPage,
  Character,
  CharacterPage,
  ReportReceipt,
} from "@hearth/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import type { api, Person, Role } from "../characters/test-support.ts";
import { moderationSuite } from "./test-support.ts";

/** Reviews, moderator actions and the audit log, per role, on both databases. */
describe.each(drivers)("moderation on %s", (driver) => {
  const { t, err, reviewsOf, audit, listedNames, report, validReport } = moderationSuite(driver);
  let a: ReturnType<typeof api>;
  let people: Record<Role, Person>;
  let admin: Person;
  let creator: Person;
  let other: Person;
  beforeAll(() => {
    ({ a, people, admin, creator, other } = t);
  });

  describe("who may call the admin endpoints", () => {
    const id = randomUUID();
    const calls: [string, (who?: Person) => ReturnType<ReturnType<typeof api>["get"]>][] = [
      ["GET /api/admin/reviews", (who) => a.get("/api/admin/reviews?status=open", who)],
      ["PUT /api/admin/reviews/{id}", (who) => a.put(`/api/admin/reviews/${id}`, { status: "closed" }, who)],
      [
        "PUT /api/admin/characters/{id}",
        (who) => a.put(`/api/admin/characters/${id}`, { is_nsfw: true }, who),
      ],
      ["DELETE /api/admin/characters/{id}", (who) => a.delete(`/api/admin/characters/${id}`, who)],
      ["GET /api/admin/audit-log", (who) => a.get("/api/admin/audit-log", who)],
      [
        "PUT /api/admin/characters/{id}/moderation",
        (who) => a.put(`/api/admin/characters/${id}/moderation`, { moderation_status: "approved" }, who),
      ],
    ];
    const refused: [Role, number, string][] = [
      ["signed out", 401, "unauthorized"],
      ["guest", 403, "forbidden"],
      ["free", 403, "forbidden"],
      ["minimal", 403, "forbidden"],
      ["basic", 403, "forbidden"],
      ["premium", 403, "forbidden"],
      ["limited", 403, "forbidden"],
      ["restricted", 403, "restricted"],
    ];
    for (const [name, call] of calls) {
      it(`${name}: administrators only`, async () => {
        for (const [role, status, code] of refused) {
          const res = await call(role === "signed out" ? undefined : people[role]);
          expect(res.statusCode, `${role}: ${res.body}`).toBe(status);
          expect(err(res).code, role).toBe(code);
        }
        // The creator of a bot is no moderator of it either.
        const own = await a.create(creator, { name: "Own bot" });
        const mine = await call(creator);
        expect(mine.statusCode).toBe(403);
        expect(own.id).toBeTruthy();
        // An administrator gets past the check: a list, or 404 for the made-up id.
        const res = await call(admin);
        expect([200, 404], res.body).toContain(res.statusCode);
      });
    }
  });

  describe("the review lifecycle", () => {
    it("pending → approved: a new public bot waits in the table, approval makes it editable again", async () => {
      const c = await a.create(creator, { name: "Lifecycle Lark", visibility: "public" });
      expect(c.moderationReport.moderation_status).toBe("pending");
      const [review, ...more] = await reviewsOf(c.id);
      expect(more).toEqual([]);
      expect(review).toMatchObject({
        kind: "new_bot",
        status: "open",
        issue: "New public bot",
        action_taken: null,
        reporter_username: null,
        character: {
          name: "Lifecycle Lark",
          visibility: "public",
          moderation_status: "pending",
          is_underage: false,
        },
      });
      const blocked = await a.patch(`/api/characters/${c.id}`, { title: "early" }, creator);
      expect(blocked.statusCode).toBe(409);

      const res = await a.put(
        `/api/admin/characters/${c.id}`,
        { moderation_status: "approved", review_id: review?.id },
        admin,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AdminCharacterResult>()).toMatchObject({
        character: { moderation_status: "approved" },
        closed_reviews: [review?.id],
      });
      expect(await reviewsOf(c.id)).toEqual([]);
      const [closed] = await reviewsOf(c.id, "status=closed");
      expect(closed).toMatchObject({ status: "closed", action_taken: "approved" });
      expect(closed?.closed_by_username).toBeTruthy();
      expect(await listedNames("Lifecycle Lark")).toEqual(["Lifecycle Lark"]);

      // Editable again; an edit of a public bot is reviewed again, as an edited bot.
      const edited = await a.patch(`/api/characters/${c.id}`, { title: "A songbird" }, creator);
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json<Character>().moderationReport.moderation_status).toBe("pending");
      expect((await reviewsOf(c.id)).map((r) => r.kind)).toEqual(["edited_bot"]);
    });

    it("fix_required → fixed → rereview_required → approved, with the reasons in the creator's banner", async () => {
      const c = await a.create(creator, { name: "Rejected Robin", visibility: "public" });
      const decision = {
        moderation_status: "fix_required",
        reason_for_moderation: ["Greeting describes real people"],
        action_taken_description: "Hidden from browse until fixed",
      };
      const res = await a.put(`/api/admin/characters/${c.id}`, decision, admin);
      expect(res.statusCode, res.body).toBe(200);
      const [closed] = await reviewsOf(c.id, "status=closed");
      expect(closed).toMatchObject({ kind: "new_bot", action_taken: "fix_required" });
      const seen = (await a.get(`/api/characters/${c.id}?switch=T1`, creator)).json<Character>();
      expect(seen.moderationReport).toEqual(decision);
      expect(await listedNames("Rejected Robin")).toEqual([]);
      const mine = (await a.get("/api/users/characters?switch=T1", creator)).json<CharacterPage>();
      expect(mine.characters[0]?.name).toBe("Rejected Robin");

      const fixed = await a.patch(`/api/characters/${c.id}`, { greeting: "Hello, traveller." }, creator);
      expect(fixed.statusCode, fixed.body).toBe(200);
      expect(fixed.json<Character>().moderationReport.moderation_status).toBe("rereview_required");
      const [again] = await reviewsOf(c.id);
      expect(again).toMatchObject({ kind: "edited_bot", issue: "Edited public bot" });
      expect((await a.patch(`/api/characters/${c.id}`, { title: "more" }, creator)).statusCode).toBe(409);

      const approve = await a.put(
        `/api/admin/characters/${c.id}/moderation`,
        { moderation_status: "approved" },
        admin,
      );
      expect(approve.statusCode, approve.body).toBe(200);
      expect(approve.json<Character>().moderationReport).toEqual({
        moderation_status: "approved",
        reason_for_moderation: [],
        action_taken_description: null,
      });
      expect(await reviewsOf(c.id)).toEqual([]);
      expect(await listedNames("Rejected Robin")).toEqual(["Rejected Robin"]);
      expect((await a.patch(`/api/characters/${c.id}`, { title: "free again" }, creator)).statusCode).toBe(
        200,
      );
    });

    it("closing a bot's own review without a send-back approves it", async () => {
      const c = await a.create(creator, { name: "Closed Crane", visibility: "public" });
      const [review] = await reviewsOf(c.id);
      const res = await a.put(
        `/api/admin/reviews/${review?.id}`,
        { status: "closed", action_taken: "none" },
        admin,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AdminReview>()).toMatchObject({ status: "closed", action_taken: "none" });
      expect(
        (await a.get(`/api/characters/${c.id}`, creator)).json<Character>().moderationReport
          .moderation_status,
      ).toBe("approved");
      // Closing again changes nothing and writes nothing more.
      const before = (await audit(review?.id ?? "")).length;
      expect((await a.put(`/api/admin/reviews/${review?.id}`, { status: "closed" }, admin)).statusCode).toBe(
        200,
      );
      expect(await audit(review?.id ?? "")).toHaveLength(before);
      expect(
        (await a.put(`/api/admin/reviews/${randomUUID()}`, { status: "closed" }, admin)).statusCode,
      ).toBe(404);
      expect((await a.put(`/api/admin/reviews/${review?.id}`, { status: "open" }, admin)).statusCode).toBe(
        400,
      );
    });
  });

  describe("moderator actions and the audit log", () => {
    it("make private, mark NSFW, underage and reset, each recorded on the review and in the audit log", async () => {
      const c = await a.create(creator, { name: "Acted Auk", visibility: "hidden" });
      const r1 = (await report(other, validReport(c.id))).json<ReportReceipt>().review_id;

      const nsfw = await a.put(`/api/admin/characters/${c.id}`, { is_nsfw: true, review_id: r1 }, admin);
      expect(nsfw.statusCode, nsfw.body).toBe(200);
      expect(nsfw.json<AdminCharacterResult>()).toMatchObject({
        character: { is_nsfw: true },
        closed_reviews: [r1],
      });
      expect((await reviewsOf(c.id, "status=closed")).find((r) => r.id === r1)?.action_taken).toBe(
        "set_nsfw",
      );

      // Underage: never listed, still in the admin's table.
      await a.patch(`/api/characters/${c.id}`, { visibility: "public" }, creator);
      await a.put(`/api/admin/characters/${c.id}`, { moderation_status: "approved" }, admin);
      expect(await listedNames("Acted Auk")).toEqual([]); // NSFW bots are not listed by default
      expect(
        (await a.get(`/api/characters?q=Acted&nsfw=true`))
          .json<CharacterPage>()
          .characters.map((x) => x.name),
      ).toEqual(["Acted Auk"]);
      const r2 = (await report(people.basic, validReport(c.id))).json<ReportReceipt>().review_id;
      await a.put(`/api/admin/characters/${c.id}`, { is_underage: true, review_id: r2 }, admin);
      expect((await a.get(`/api/characters?q=Acted&nsfw=true`)).json<CharacterPage>().characters).toEqual([]);
      const r3 = (await report(people.minimal, validReport(c.id))).json<ReportReceipt>().review_id;
      expect((await reviewsOf(c.id)).find((r) => r.id === r3)?.character.is_underage).toBe(true);
      const reset = await a.put(
        `/api/admin/characters/${c.id}`,
        { is_underage: false, review_id: r3 },
        admin,
      );
      expect(reset.statusCode).toBe(200);
      expect((await reviewsOf(c.id, "status=closed")).find((r) => r.id === r3)?.action_taken).toBe(
        "reset_underage",
      );
      expect(
        (await a.get(`/api/characters?q=Acted&nsfw=true`)).json<CharacterPage>().characters,
      ).toHaveLength(1);

      // Make private: the spec's call names no review, so every open one of the bot closes.
      const r4 = (await report(people.free, validReport(c.id))).json<ReportReceipt>().review_id;
      const priv = await a.put(`/api/admin/characters/${c.id}`, { visibility: "private" }, admin);
      expect(priv.json<AdminCharacterResult>().closed_reviews).toEqual([r4]);
      expect((await reviewsOf(c.id, "status=closed")).find((r) => r.id === r4)?.action_taken).toBe(
        "made_private",
      );
      expect((await a.get(`/api/characters/${c.id}`, other)).statusCode).toBe(404);
      expect((await a.get(`/api/characters/${c.id}?switch=T1`, creator)).json<Character>().visibility).toBe(
        "private",
      );

      const log = await audit(c.id);
      const moderations = log.filter((e) => e.action === "character.moderate");
      expect(moderations).toHaveLength(5);
      const last = moderations[0];
      expect(last).toMatchObject({
        actor_user_id: admin.id,
        target_type: "character",
        target_id: c.id,
        before: { visibility: "public" },
        after: { visibility: "private", action_taken: "made_private", closed_reviews: [r4] },
      });
      expect(last?.actor_username).toBeTruthy();
      expect(moderations.at(-1)).toMatchObject({ before: { is_nsfw: false }, after: { is_nsfw: true } });
      expect((await a.put(`/api/admin/characters/${c.id}`, {}, admin)).statusCode).toBe(400);
      expect(
        (await a.put(`/api/admin/characters/${c.id}`, { is_nsfw: true, review_id: randomUUID() }, admin))
          .statusCode,
      ).toBe(404);
    });

    it("delete closes the bot's open reviews with action_taken deleted", async () => {
      const c = await a.create(creator, { name: "Doomed Dunlin", visibility: "public" });
      const r = (await report(other, validReport(c.id))).json<ReportReceipt>().review_id;
      const res = await a.delete(`/api/admin/characters/${c.id}?review_id=${r}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json<AdminCharacterResult>();
      expect(result.character.is_deleted).toBe(true);
      expect(result.closed_reviews.sort()).toHaveLength(2); // the report and the new-bot review
      const closed = await reviewsOf(c.id, "status=closed");
      expect(closed.map((x) => x.action_taken)).toEqual(["deleted", "deleted"]);
      expect((await a.get(`/api/characters/${c.id}`, creator)).statusCode).toBe(404);
      expect((await a.delete(`/api/admin/characters/${c.id}`, admin)).statusCode).toBe(404);
      const [entry] = await audit(c.id);
      expect(entry).toMatchObject({
        action: "character.delete",
        before: { deleted: false },
        after: { deleted: true },
      });
    });

    it("an administrator edits anyone's bot in the editor, audited with the fields before and after", async () => {
      const c = await a.create(creator, { name: "Edited Egret", title: "Old title" });
      const opened = await a.get(`/api/characters/${c.id}?switch=T1`, admin);
      expect(opened.statusCode).toBe(200);
      const res = await a.patch(`/api/characters/${c.id}`, { title: "New title" }, admin);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Character>().moderationReport.moderation_status).toBe("approved");
      const [entry] = await audit(c.id);
      expect(entry).toMatchObject({
        action: "character.edit",
        actor_user_id: admin.id,
        before: { title: "Old title" },
        after: { title: "New title" },
      });
      // The creator's own edits are not administrator actions.
      await a.patch(`/api/characters/${c.id}`, { title: "Creator's" }, creator);
      expect(await audit(c.id)).toHaveLength(1);
    });

    it("a delete through the characters API by an administrator is audited; the creator's own is not", async () => {
      const theirs = await a.create(creator, { name: "Admin Deleted" });
      expect((await a.delete(`/api/characters/${theirs.id}`, admin)).statusCode).toBe(204);
      expect(await audit(theirs.id)).toMatchObject([
        {
          action: "character.delete",
          actor_user_id: admin.id,
          before: { deleted: false },
          after: { deleted: true },
        },
      ]);
      const own = await a.create(creator, { name: "Self Deleted" });
      expect((await a.delete(`/api/characters/${own.id}`, creator)).statusCode).toBe(204);
      expect(await audit(own.id)).toEqual([]);
    });

    it("putting a bot back in the queue opens its review and leaves reports open", async () => {
      const c = await a.create(creator, { name: "Requeued Rook", visibility: "hidden" });
      const r = (await report(other, validReport(c.id))).json<ReportReceipt>().review_id;
      const res = await a.put(
        `/api/admin/characters/${c.id}/moderation`,
        { moderation_status: "rereview_required" },
        admin,
      );
      expect(res.statusCode, res.body).toBe(200);
      const open = await reviewsOf(c.id);
      expect(open.map((x) => x.kind).sort()).toEqual(["edited_bot", "user_report"]);
      expect(open.find((x) => x.kind === "user_report")?.id).toBe(r);
    });

    it("pages the review table newest first and filters by kind", async () => {
      const made: string[] = [];
      for (const name of ["Page One", "Page Two", "Page Three"]) {
        made.push((await a.create(creator, { name, visibility: "public" })).id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `status=open&kind=new_bot&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page: AdminReviewPage = (await a.get(`/api/admin/reviews?${q}`, admin)).json<AdminReviewPage>();
        expect(page.reviews.every((r) => r.kind === "new_bot")).toBe(true);
        seen.push(...page.reviews.map((r) => r.character_id));
        cursor = page.next_cursor;
      } while (cursor);
      const ours = seen.filter((id) => made.includes(id));
      expect(ours).toEqual([...made].reverse());
      expect(new Set(seen).size).toBe(seen.length);
      expect((await a.get("/api/admin/reviews?status=maybe", admin)).statusCode).toBe(400);
    });
  });
});

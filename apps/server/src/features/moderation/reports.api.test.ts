import { randomUUID } from "node:crypto";
import type { Character, ConversationCreated, ReportReceipt } from "@hearth/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import type { api, Person, Role } from "../characters/test-support.ts";
import { ALREADY_FLAGGED_MESSAGE, ALREADY_REPORTED_MESSAGE } from "./policy.ts";
import { moderationSuite } from "./test-support.ts";

/** Members' reports of bots and flags of messages, per role, on both databases. */
describe.each(drivers)("reports and flags on %s", (driver) => {
  const { t, err, reviewsOf, report, validReport } = moderationSuite(driver);
  let a: ReturnType<typeof api>;
  let people: Record<Role, Person>;
  let admin: Person;
  let creator: Person;
  let other: Person;
  beforeAll(() => {
    ({ a, people, admin, creator, other } = t);
  });

  describe("reports (POST /api/reportCharacter)", () => {
    it("needs report_character: members report, guests, limited and restricted accounts cannot", async () => {
      const c = await a.create(creator, { name: "Reportable", visibility: "hidden" });
      const expected: [Role, number, string?][] = [
        ["signed out", 401, "unauthorized"],
        ["guest", 403, "forbidden"],
        ["limited", 403, "forbidden"],
        ["restricted", 403, "restricted"],
        ["free", 201],
        ["minimal", 201],
        ["basic", 201],
        ["premium", 201],
        ["admin", 201],
      ];
      for (const [role, status, code] of expected) {
        const res = await report(role === "signed out" ? undefined : people[role], validReport(c.id));
        expect(res.statusCode, `${role}: ${res.body}`).toBe(status);
        if (code) expect(err(res).code).toBe(code);
      }
      // The creator may report their own bot (My Chatbots offers it).
      expect((await report(creator, validReport(c.id))).statusCode).toBe(201);
      expect((await reviewsOf(c.id)).filter((r) => r.kind === "user_report")).toHaveLength(6);
    });

    it("opens a user_report review, marks the bot reported, and allows one open report per member and bot", async () => {
      const c = await a.create(creator, { name: "Flooded Finch", visibility: "hidden" });
      const first = await report(other, validReport(c.id));
      expect(first.statusCode, first.body).toBe(201);
      const receipt = first.json<ReportReceipt>();
      expect(receipt.status).toBe("open");
      const [review] = await reviewsOf(c.id);
      expect(review).toMatchObject({
        id: receipt.review_id,
        kind: "user_report",
        issue: "Hate or harassment",
        resolution: "Ask the creator to fix it",
        details: "The greeting insults the reader.",
        character: { reportsType: ["User"] },
      });
      expect(review?.reporter_username).toBeTruthy();
      expect((await a.get(`/api/characters/${c.id}`, creator)).json<Character>().reportsType).toEqual([
        "User",
      ]);

      const second = await report(other, validReport(c.id));
      expect(second.statusCode).toBe(409);
      expect(err(second)).toMatchObject({ code: "conflict", message: ALREADY_REPORTED_MESSAGE });
      // Another member still may; once the first report is closed, its author may report again.
      expect((await report(people.premium, validReport(c.id))).statusCode).toBe(201);
      await a.put(
        `/api/admin/reviews/${receipt.review_id}`,
        { status: "closed", action_taken: "none" },
        admin,
      );
      expect((await report(other, validReport(c.id))).statusCode).toBe(201);

      // Sent back after a report, the editor banner says 'Reported' (reportsType has User).
      await a.put(
        `/api/admin/characters/${c.id}`,
        {
          moderation_status: "fix_required",
          reason_for_moderation: ["Insults"],
          review_id: receipt.review_id,
        },
        admin,
      );
      const seen = (await a.get(`/api/characters/${c.id}?switch=T1`, creator)).json<Character>();
      expect(seen.reportsType).toContain("User");
      expect(seen.moderationReport.moderation_status).toBe("fix_required");
    });

    it("applies the form's rules (§5) and answers 404 for a bot the member cannot see", async () => {
      const c = await a.create(creator, { name: "Hidden Heron", visibility: "private" });
      const missing = await report(other, validReport(c.id));
      expect(missing.statusCode).toBe(404);
      expect(err(missing).code).toBe("invalidAccess");
      expect((await report(other, validReport(randomUUID()))).statusCode).toBe(404);
      expect((await report(other, validReport("not-a-bot"))).statusCode).toBe(404);

      const bad: [Record<string, unknown>, string][] = [
        [{ character_id: "" }, "You must provide an id"],
        [{ character_id: "x".repeat(51) }, "You must provide an id"],
        [{ userReportDetails: "  " }, "Details are required"],
        [{ userReportDetails: "x".repeat(251) }, "At most 250"],
        [{ userIssueType: "Something else" }, "Choose what is wrong"],
        [{ userExpectedResolution: undefined }, "Choose what you expect"],
      ];
      for (const [change, message] of bad) {
        const res = await report(other, { ...validReport(c.id), ...change });
        expect(res.statusCode, JSON.stringify(change)).toBe(400);
        expect(err(res).message).toContain(message);
      }
    });
  });

  describe("message flags (POST /api/reportMessage)", () => {
    it("only the conversation's owner flags its messages; the review keeps a copy of the text", async () => {
      const c = await a.create(creator, {
        name: "Chatty Chough",
        visibility: "hidden",
        greeting: "Well met, stranger.",
      });
      const chat = await a.post("/api/conversations", { character_id: c.id }, other);
      expect(chat.statusCode, chat.body).toBeLessThan(300);
      const { conversation, messages } = chat.json<ConversationCreated>();
      const message = messages[0];
      if (!message) throw new Error("no greeting");
      const flag = {
        message_id: message.id,
        conversation_id: conversation.id,
        character_id: c.id,
        label: "Out of character",
        comment: "It broke character.",
      };
      for (const [role, status] of [
        ["signed out", 401],
        ["guest", 403],
        ["limited", 403],
        ["restricted", 403],
        ["premium", 404],
        ["admin", 404],
      ] as [Role, number][]) {
        const res = await a.post(
          "/api/reportMessage",
          flag,
          role === "signed out" ? undefined : people[role],
        );
        expect(res.statusCode, `${role}: ${res.body}`).toBe(status);
      }
      // The bot's creator is not the chat's owner either.
      expect((await a.post("/api/reportMessage", flag, creator)).statusCode).toBe(404);
      const wrong = await a.post("/api/reportMessage", { ...flag, conversation_id: randomUUID() }, other);
      expect(wrong.statusCode).toBe(404);
      expect((await a.post("/api/reportMessage", { ...flag, label: "Nope" }, other)).statusCode).toBe(400);

      const res = await a.post("/api/reportMessage", flag, other);
      expect(res.statusCode, res.body).toBe(201);
      const [review] = (await reviewsOf(c.id, "status=open&kind=message_flag")).filter(
        (r) => r.id === res.json<ReportReceipt>().review_id,
      );
      expect(review).toMatchObject({
        kind: "message_flag",
        issue: "Out of character",
        details: "It broke character.",
        message_id: message.id,
        conversation_id: conversation.id,
        message_excerpt: "Well met, stranger.",
      });
      const again = await a.post("/api/reportMessage", { ...flag, comment: "" }, other);
      expect(again.statusCode).toBe(409);
      expect(err(again).message).toBe(ALREADY_FLAGGED_MESSAGE);
    });
  });
});
